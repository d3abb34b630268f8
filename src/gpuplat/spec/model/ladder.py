"""The capacity ladder: where a pool's GPUs come from, tried in order.

A pool's ``capacity`` is either one mapping (:class:`Capacity`, one rung) or a list of rungs,
most preferred first. A rung is a word (``on-demand``, ``spot``, ``flex-start``,
``reservation``) or a mapping whose one kind key says where the nodes come from and whose
other keys give that rung its own shape, zones or name.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Field, Tag

from gpuplat.spec.model.base import Duration, SpecModel

RungWord = Literal["on-demand", "spot", "flex-start", "reservation"]
"""A rung written as one word: ``reservation`` alone consumes any matching reservation."""
RUNG_KINDS = ("reservation", "on-demand", "flex-start", "capacity-block", "spot")
"""Every kind of rung, in the order a ladder usually climbs down."""


class Marker(SpecModel):
    """A rung kind that takes no settings of its own (``on-demand: {}``)."""


class Spot(SpecModel):
    """Spot settings of a rung."""

    max_price: float | None = Field(
        None,
        gt=0,
        description="AKS: the most USD per hour a node may cost before Azure evicts it. "
        "Default: the on-demand price (nodes are evicted only when Azure needs the capacity).",
    )


class FlexStart(SpecModel):
    """Flex-start settings of a rung."""

    max_run_duration: Duration | None = Field(
        None,
        description="How long a flex-start node may run before it is reclaimed (at most 7d). "
        "Default: 7d.",
    )


class Rung(SpecModel):
    """One rung of a capacity ladder: exactly one kind key, plus what differs on this rung."""

    reservation: str | None = Field(
        None,
        description="Consume this reservation: a GCE reservation name, an EC2 On-Demand "
        "Capacity Reservation id (cr-...), or the resource id of an Azure capacity "
        "reservation group.",
    )
    block: str | None = Field(
        None, description="GKE: the reservation block of `reservation` to consume."
    )
    project: str | None = Field(
        None, description="GKE: project that owns a shared `reservation`, when not the cluster's."
    )
    on_demand: Marker | None = Field(None, alias="on-demand", description="On-demand nodes.")
    flex_start: FlexStart | None = Field(
        None,
        alias="flex-start",
        description="GKE flex-start (Dynamic Workload Scheduler) nodes: e.g. "
        "{max_run_duration: 7d}.",
    )
    capacity_block: str | None = Field(
        None,
        alias="capacity-block",
        description="EKS: an EC2 Capacity Block for ML (cr-...), GPUs reserved for a window.",
    )
    spot: Spot | None = Field(
        None, description="Spot nodes (reclaimable at short notice): {} or, on AKS, {max_price: …}."
    )
    name: str | None = Field(
        None,
        description="Suffix of this rung's node pool: <pool>-<name> (<pool><name> on AKS, "
        "whose pool names hold no dash). Default: from its kind (res, od, flex, cb, spot).",
    )
    machine_type: str | None = Field(
        None,
        description="This rung's machine shape, when not the pool's (same GPU model and count "
        "per node).",
    )
    zones: list[str] | None = Field(
        None, description="This rung's zones, when not the pool's (e.g. a reservation's zone)."
    )
    priority_score: int | None = Field(
        None,
        ge=1,
        le=1000,
        description="GKE: this rung's priorityScore in the pool's ComputeClass (1-1000; a "
        "higher score is tried first, rungs of one score in the order written). Needs GKE "
        "1.35 or later.",
    )


class ComputeClassSettings(SpecModel):
    """GKE: what a laddered pool's ComputeClass says beyond the order of its rungs."""

    auto_create: bool = Field(
        False,
        description="Let GKE create node pools for the rungs (nodePoolAutoCreation, GKE "
        "1.33.3-gke.1136000 or later): each rung becomes a rule of its machine, GPUs and "
        "capacity instead of naming gpuplat's node pool, which stays and is scaled first "
        "where it matches. False: GKE only scales gpuplat's node pools.",
    )
    max_pods_per_node: int | None = Field(
        None,
        ge=8,
        le=256,
        description="Most pods on each node GKE creates for the class (8-256; GKE 1.33 or "
        "later). Only with auto_create.",
    )
    node_recycling: Duration | None = Field(
        None,
        description="Flex-start rungs: start a replacement node this long before a node "
        "reaches its max_run_duration (nodeRecycling.leadTimeSeconds; GKE 1.33 or later). "
        "Only with auto_create.",
    )


def _word_or_mapping(value: object) -> str:
    return "word" if isinstance(value, str) else "mapping"


RungItem = Annotated[
    Annotated[RungWord, Tag("word")] | Annotated[Rung, Tag("mapping")],
    Discriminator(_word_or_mapping),
]
"""A rung as written: a word or a mapping (one branch is tried, so errors name one problem)."""

__all__ = [
    "RUNG_KINDS",
    "ComputeClassSettings",
    "FlexStart",
    "Marker",
    "Rung",
    "RungItem",
    "RungWord",
    "Spot",
]
