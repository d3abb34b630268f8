"""What a workload's pods add for the capacity ladders of their pools: the class they select and
tolerate, the node label they are placed by, and the GPU quota that holds them to the cap."""

from __future__ import annotations

from gpuplat.labels import POOL_LABEL
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets import target
from gpuplat.workload.capacity import pool_units


def ladder_selector(
    cluster: Cluster, pools: list[NodePool]
) -> tuple[dict[str, str], tuple[dict[str, str], ...]]:
    """What the pods add to land on their pools' ladders (the checks allow one ladder then)."""
    cloud = target(cluster.cloud)
    selector: dict[str, str] = {}
    tolerations: tuple[dict[str, str], ...] = ()
    for pool in pools:
        more, tolerated = cloud.ladder_selector(cloud.ladder(cluster, pool))
        selector.update(more)
        tolerations += tolerated
    return dict(sorted(selector.items())), tolerations


def placement(cluster: Cluster, pools: list[NodePool]) -> tuple[str, tuple[str, ...]]:
    """The node label the pods' required affinity reads, and the values it accepts.

    Normally the pools' own label and their names. A ladder whose nodes the cloud may create
    itself (GKE node-pool auto-creation) has nodes without the pool's label, so the pods are
    placed by the label the cloud gives them (the checks keep such a pool a workload's only one).
    """
    cloud = target(cluster.cloud)
    if len(pools) == 1:
        own = cloud.ladder_placement(cloud.ladder(cluster, pools[0]))
        if own is not None:
            return own[0], (own[1],)
    return POOL_LABEL, tuple(p.name for p in pools)


def gpu_quota(cluster: Cluster, pools: list[NodePool], *, dra: bool) -> int | None:
    """The GPU requests a namespace may hold: what its pools' ladders allow at their cap.

    Each rung's node pool may alone grow to the whole cap (the rungs above it may have nothing),
    so the node pools together could exceed it; the quota holds the workload to the cap. A DRA
    claim requests no ``nvidia.com/gpu``, so there is nothing to count.
    """
    ladders = [target(cluster.cloud).ladder(cluster, p) for p in pools]
    if dra or not any(lad.is_ladder for lad in ladders):
        return None
    return sum(pool_units(cluster, lad.pool) for lad in ladders)
