"""GKE's custom ComputeClass (``cloud.google.com/v1``) as typed data.

The fields are those of the ComputeClass reference
(https://cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass) that a capacity
ladder uses: ``priorities`` (each naming its node pool under ``nodepools`` and restating what
that pool is: machine type, GPUs, spot, reservations, flex-start with node recycling, max run
duration), ``whenUnsatisfiable`` and ``activeMigration.optimizeRulePriority``. A class is
checked (:meth:`ComputeClass.problems`) before it is rendered; :meth:`ComputeClass.manifest` is
the one source of the object, written by the platform stage's ``kubernetes_manifest`` and by the
plain manifests alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

API_VERSION = "cloud.google.com/v1"
KIND = "ComputeClass"
CLASS_LABEL = "cloud.google.com/compute-class"
"""Node label (and taint key) of the nodes of a class; pods select a class by it."""
FLEX_START_RUN_SECONDS = (10 * 60, 7 * 24 * 3600)
"""Shortest and longest max run duration of a flex-start node."""

WhenUnsatisfiable = Literal["DoNotScaleUp", "ScaleUpAnyway"]
Affinity = Literal["Specific", "AnyBestEffort", "None"]


@dataclass(frozen=True)
class Gpu:
    """``priorities[].gpu``: the accelerator of a rule's nodes."""

    type: str
    count: int
    driver_version: Literal["default", "latest"] | None = None

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {"type": self.type, "count": self.count}
        if self.driver_version is not None:
            out["driverVersion"] = self.driver_version
        return out


@dataclass(frozen=True)
class SpecificReservation:
    """One reservation of ``reservations.specific``."""

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
class Reservations:
    """``priorities[].reservations``: which reservations a rule's nodes consume."""

    affinity: Affinity
    specific: tuple[SpecificReservation, ...] = ()

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {"affinity": self.affinity}
        if self.specific:
            out["specific"] = [r.manifest() for r in self.specific]
        return out


@dataclass(frozen=True)
class FlexStart:
    """``priorities[].flexStart``: nodes from the Dynamic Workload Scheduler."""

    enabled: bool = True
    node_recycling_lead_seconds: int | None = None
    """Start a replacement node this long before a node reaches its max run duration."""

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {"enabled": self.enabled}
        if self.node_recycling_lead_seconds is not None:
            out["nodeRecycling"] = {"leadTimeSeconds": self.node_recycling_lead_seconds}
        return out


@dataclass(frozen=True)
class PriorityRule:
    """One entry of ``priorities``: one rung of the ladder, naming the node pool it scales."""

    nodepools: tuple[str, ...]
    machine_type: str | None = None
    gpu: Gpu | None = None
    spot: bool | None = None
    reservations: Reservations | None = None
    flex_start: FlexStart | None = None
    max_run_duration_seconds: int | None = None

    def problems(self) -> list[str]:
        """What GKE would refuse or misread in this rule (empty when none)."""
        out = []
        if not self.nodepools:
            out.append("a rule names no node pool")
        if self.spot and self.reservations is not None and self.reservations.affinity != "None":
            out.append("spot nodes cannot consume reservations")
        if self.flex_start is not None and self.flex_start.enabled:
            if self.spot:
                out.append("flex-start nodes are not spot nodes")
            if self.reservations is not None and self.reservations.affinity != "None":
                out.append("flex-start nodes cannot consume reservations")
            low, high = FLEX_START_RUN_SECONDS
            run = self.max_run_duration_seconds
            if run is None or not low <= run <= high:
                out.append(f"flex-start needs maxRunDurationSeconds from {low} to {high}")
            lead = self.flex_start.node_recycling_lead_seconds
            if lead is not None and run is not None and lead >= run:
                out.append(
                    f"node recycling starts {lead}s before the end of a {run}s run: "
                    "a replacement node would be recycled before it serves"
                )
        if self.reservations is not None:
            specific = bool(self.reservations.specific)
            if specific != (self.reservations.affinity == "Specific"):
                out.append("reservations.specific goes with affinity Specific, and only with it")
        if self.gpu is not None and self.gpu.count < 1:
            out.append("gpu.count must be at least 1")
        return out

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {"nodepools": list(self.nodepools)}
        if self.machine_type is not None:
            out["machineType"] = self.machine_type
        if self.gpu is not None:
            out["gpu"] = self.gpu.manifest()
        if self.spot is not None:
            out["spot"] = self.spot
        if self.reservations is not None:
            out["reservations"] = self.reservations.manifest()
        if self.flex_start is not None:
            out["flexStart"] = self.flex_start.manifest()
        if self.max_run_duration_seconds is not None:
            out["maxRunDurationSeconds"] = self.max_run_duration_seconds
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

    def problems(self) -> list[str]:
        """Every problem of the class and its rules, each naming its rule (empty when none)."""
        out = []
        if not self.priorities:
            out.append("a ComputeClass needs at least one priority rule")
        seen: set[str] = set()
        for k, rule in enumerate(self.priorities):
            out.extend(f"priorities[{k}]: {p}" for p in rule.problems())
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
                "nodePoolAutoCreation": {"enabled": False},
                "priorities": [rule.manifest() for rule in self.priorities],
                "whenUnsatisfiable": self.when_unsatisfiable,
            },
        }

    def taint(self) -> dict[str, str]:
        """The taint the class's nodes carry (GKE's convention for manually created pools)."""
        return {"key": CLASS_LABEL, "value": self.name, "effect": "NoSchedule"}
