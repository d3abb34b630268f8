"""GKE's custom ComputeClass (``cloud.google.com/v1``) as typed data.

gpuplat creates each rung's node pool itself. By default a class only orders those pools: every
priority rule is a ``nodepools`` rule naming one pool (and, from GKE 1.35, its
``priorityScore``); GKE refuses anything else beside ``nodepools`` (the CRD's rule "Nodepool
field cannot be set along with other fields"): what a rung is is the node pool's own
configuration. With node-pool auto-creation a rule instead says what a rung is — the machine,
its GPUs, spot, a named reservation, flex-start and its run duration — so GKE can create node
pools of it; the settings of the nodes GKE creates (``maxPodsPerNode``,
``flexStart.nodeRecycling``) exist only in such rules. :meth:`ComputeClass.manifest` is the one source of the object,
written by the platform stage's ``kubernetes_manifest`` and by the plain manifests alike; the
object is checked against the vendored CRDs (:mod:`gpuplat.crds`) before it is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

API_VERSION = "cloud.google.com/v1"
KIND = "ComputeClass"
CLASS_LABEL = "cloud.google.com/compute-class"
"""Node label (and taint key) of the nodes of a class; pods select a class by it."""

WhenUnsatisfiable = Literal["DoNotScaleUp", "ScaleUpAnyway"]


@dataclass(frozen=True)
class Reservation:
    """A specific reservation a rule consumes."""

    name: str
    project: str | None = None
    block: str | None = None

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name}
        if self.project is not None:
            out["project"] = self.project
        if self.block is not None:
            out["reservationBlock"] = {"name": self.block}
        return out


@dataclass(frozen=True)
class PriorityRule:
    """One entry of ``priorities``: one rung of the ladder.

    Either ``nodepools`` (the node pools gpuplat renders) or a rule of the machine GKE creates
    node pools from (``machine_type`` and the rest), never both.
    """

    nodepools: tuple[str, ...] = ()
    priority_score: int | None = None
    machine_type: str | None = None
    gpu_type: str | None = None
    gpu_count: int | None = None
    driver_version: str | None = None
    spot: bool = False
    flex_start: bool = False
    node_recycling: int | None = None
    """Seconds before a flex-start node's end when GKE starts its replacement."""
    max_run_duration: int | None = None
    reservation: Reservation | None = None
    zones: tuple[str, ...] = ()
    max_pods_per_node: int | None = None

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.nodepools:
            out["nodepools"] = list(self.nodepools)
        if self.machine_type is not None:
            out["machineType"] = self.machine_type
        if self.gpu_type is not None:
            gpu: dict[str, object] = {"type": self.gpu_type, "count": self.gpu_count}
            if self.driver_version is not None:
                gpu["driverVersion"] = self.driver_version
            out["gpu"] = gpu
        if self.spot:
            out["spot"] = True
        if self.flex_start:
            flex: dict[str, object] = {"enabled": True}
            if self.node_recycling is not None:
                flex["nodeRecycling"] = {"leadTimeSeconds": self.node_recycling}
            out["flexStart"] = flex
        if self.max_run_duration is not None:
            out["maxRunDurationSeconds"] = self.max_run_duration
        if self.reservation is not None:
            out["reservations"] = {
                "affinity": "Specific",
                "specific": [self.reservation.manifest()],
            }
        if self.zones:
            out["location"] = {"zones": list(self.zones)}
        if self.max_pods_per_node is not None:
            out["maxPodsPerNode"] = self.max_pods_per_node
        if self.priority_score is not None:
            out["priorityScore"] = self.priority_score
        return out


@dataclass(frozen=True)
class ComputeClass:
    """A custom ComputeClass: the ladder of one pool, as GKE's autoscaler reads it."""

    name: str
    priorities: tuple[PriorityRule, ...]
    when_unsatisfiable: WhenUnsatisfiable = "DoNotScaleUp"
    optimize_rule_priority: bool = True
    """Move workloads back up the ladder when a higher rung has capacity again."""
    labels: tuple[tuple[str, str], ...] = ()
    auto_create: bool = False
    """``nodePoolAutoCreation``: GKE may create node pools of the rules that are not
    ``nodepools`` rules."""

    def problems(self) -> list[str]:
        """What the ladder would get wrong, each naming its rule (empty when none).

        What GKE itself refuses is checked against its CRDs (:func:`gpuplat.crds.check_object`).
        """
        out = []
        if not self.priorities:
            out.append("a ComputeClass needs at least one priority rule")
        seen: set[str] = set()
        for k, rule in enumerate(self.priorities):
            if not rule.nodepools and rule.machine_type is None:
                out.append(f"priorities[{k}]: a rule names no node pool and no machine")
            if rule.machine_type is not None and not self.auto_create:
                out.append(f"priorities[{k}]: a machine rule without node-pool auto-creation")
            for pool in rule.nodepools:
                if pool in seen:
                    out.append(f"priorities[{k}]: node pool {pool} is named by an earlier rule")
                seen.add(pool)
        return out

    def manifest(self) -> dict[str, object]:
        """The Kubernetes object."""
        metadata: dict[str, object] = {"name": self.name}
        if self.labels:
            metadata["labels"] = dict(self.labels)
        return {
            "apiVersion": API_VERSION,
            "kind": KIND,
            "metadata": metadata,
            "spec": {
                "activeMigration": {"optimizeRulePriority": self.optimize_rule_priority},
                "nodePoolAutoCreation": {"enabled": self.auto_create},
                "priorities": [rule.manifest() for rule in self.priorities],
                "whenUnsatisfiable": self.when_unsatisfiable,
            },
        }

    def taint(self) -> dict[str, str]:
        """The taint the class's nodes carry (GKE's convention for manually created pools)."""
        return {"key": CLASS_LABEL, "value": self.name, "effect": "NoSchedule"}
