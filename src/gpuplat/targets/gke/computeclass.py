"""GKE's custom ComputeClass (``cloud.google.com/v1``) as typed data.

gpuplat creates each rung's node pool itself (node pool auto-creation stays off), so a class
only orders those pools: every priority rule is a ``nodepools`` rule naming one pool, and
nothing else. GKE refuses anything beside ``nodepools`` in such a rule (the CRD's rule "Nodepool
field cannot be set along with other fields"; About custom ComputeClasses): what a rung is —
spot, a reservation, flex-start and its run duration, the machine and its GPUs — is the node
pool's own configuration. :meth:`ComputeClass.manifest` is the one source of the object,
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
class PriorityRule:
    """One entry of ``priorities``: one rung of the ladder, the node pool it scales."""

    nodepools: tuple[str, ...]

    def manifest(self) -> dict[str, object]:
        return {"nodepools": list(self.nodepools)}


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
        """What the ladder would get wrong, each naming its rule (empty when none).

        What GKE itself refuses is checked against its CRDs (:func:`gpuplat.crds.check_object`).
        """
        out = []
        if not self.priorities:
            out.append("a ComputeClass needs at least one priority rule")
        seen: set[str] = set()
        for k, rule in enumerate(self.priorities):
            if not rule.nodepools:
                out.append(f"priorities[{k}]: a rule names no node pool")
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
