"""What a workload is on each of its clusters: its role, and the workload as it runs there.

A placement is ``active`` (serves), ``warm`` (a standby running ``warm_replicas``) or ``cold``
(a standby running none). Without ``placements``, the first of ``clusters`` is active and the
others are cold, which is what gpuplat always rendered for standby clusters.

The replica bounds of each role, the same for the Deployment, the HPA and KEDA:

=========  ==============================  ==============================  ====================
role       no autoscaling metric           HPA (autoscaling.metric)        KEDA (scale_to_zero)
=========  ==============================  ==============================  ====================
active     replicas.min                    replicas.min .. replicas.max    0 .. replicas.max
warm       warm_replicas                   warm_replicas .. replicas.max   warm_replicas .. max
cold       0 (starts on failover)          0 (no HPA: it cannot hold 0)    0 .. replicas.max
=========  ==============================  ==============================  ====================
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat.spec.model import Role, Workload, WorkloadPlacement

OVERRIDES = ("image", "args", "gpus", "replicas")
"""Keys a placement may set to differ from the workload on its cluster."""


@dataclass(frozen=True)
class Bounds:
    """Replica bounds of a workload on one cluster, for its role."""

    role: Role
    low: int
    """Replicas it always runs (the Deployment's count and the autoscaler's minimum)."""
    high: int
    """Most replicas an autoscaler may take it to (= low when nothing scales it)."""


def role_of(workload: Workload, cluster: str) -> Role:
    """The role of ``workload`` on ``cluster`` (one of its clusters)."""
    placed = workload.placements.get(cluster)
    if placed is not None and placed.role is not None:
        return placed.role
    return "active" if workload.clusters[0] == cluster else "cold"


def on(workload: Workload, cluster: str) -> Workload:
    """The workload as it runs on ``cluster``: its placement's overrides applied."""
    placed = workload.placements.get(cluster)
    if placed is None:
        return workload
    changes = {key: getattr(placed, key) for key in OVERRIDES if getattr(placed, key) is not None}
    return workload.model_copy(update=changes) if changes else workload


def placement(workload: Workload, cluster: str) -> WorkloadPlacement:
    """The placement of ``workload`` on ``cluster``, written or default."""
    return workload.placements.get(cluster) or WorkloadPlacement()


def bounds(workload: Workload, cluster: str) -> Bounds:
    """Replica bounds of the workload on ``cluster``, for its role (see the module's table)."""
    role = role_of(workload, cluster)
    mine = on(workload, cluster)
    scales = mine.scale_to_zero or mine.autoscaling.metric is not None
    if role == "active":
        return Bounds(role, mine.replicas.min, mine.replicas.max)
    if role == "warm":
        warm = min(placement(workload, cluster).warm_replicas, mine.replicas.max)
        return Bounds(role, warm, mine.replicas.max if scales else warm)
    return Bounds(role, 0, mine.replicas.max if mine.scale_to_zero else 0)


def active_clusters(workload: Workload) -> list[str]:
    """The clusters where the workload serves."""
    return [c for c in workload.clusters if role_of(workload, c) == "active"]
