"""GPU capacity of a cluster's pools and who may take it: placement, over-subscription, surge.

A replica is placed on one node, so a pool of ``n`` nodes with ``U`` GPU units each holds
``n x (U // g)`` replicas of ``g`` units (units a replica cannot use are stranded). Several
workloads may share pools: each may grow to its ``replicas.max``, so the capacity one of them
can count on is what is left after the others' most.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import resolve_pool, workload_pools
from gpuplat.spec.roles import bounds, on
from gpuplat.targets import pool_node_bounds


@dataclass(frozen=True)
class Demand:
    """The most GPU units one workload may hold on one cluster's pools."""

    workload: Workload
    index: int
    """Position of the workload in the spec."""
    pools: tuple[str, ...]
    units: int


def max_replicas_on(workload: Workload, cluster: Cluster) -> int:
    """A workload's most replicas on a cluster, for its role there (spec/roles.py)."""
    return bounds(workload, cluster.name).high


def units_per_node(cluster: Cluster, pool: NodePool) -> int:
    return resolve_pool(cluster, pool).units_per_node or 0


def pool_units(cluster: Cluster, pool: NodePool) -> int:
    """GPU units of a pool at max_nodes."""
    return pool_node_bounds(cluster, pool)[1] * units_per_node(cluster, pool)


def started_at_once(cluster: Cluster, pool: NodePool, workload: Workload) -> int:
    """Replicas of a workload a new node of the pool starts together: all that fit on it, up
    to the workload's most on the cluster (at least 1)."""
    return max(min(per_node(cluster, pool, workload.gpus), max_replicas_on(workload, cluster)), 1)


def per_node(cluster: Cluster, pool: NodePool, gpus: int) -> int:
    """Replicas of ``gpus`` units one node of the pool holds (0 when one does not fit)."""
    units = units_per_node(cluster, pool)
    shared = pool.sharing.mode in ("time-slicing", "mps")
    if units == 0 or gpus > units or (shared and gpus != 1):
        return 0
    return units // gpus


def placeable(cluster: Cluster, pools: list[NodePool], gpus: int) -> int:
    """Replicas of ``gpus`` units the pools hold at max_nodes, one replica per node slot."""
    return sum(pool_node_bounds(cluster, p)[1] * per_node(cluster, p, gpus) for p in pools)


def demands(spec: Spec, cluster: Cluster) -> list[Demand]:
    """Every workload's most GPU units on a cluster, with the pools it may use."""
    out = []
    for i, workload in enumerate(spec.workloads):
        pools = workload_pools(spec, workload).get(cluster.name)
        if not pools:
            continue
        mine = on(workload, cluster.name)
        units = max_replicas_on(workload, cluster) * mine.gpus * mine.group_size
        out.append(Demand(workload, i, tuple(p.name for p in pools), units))
    return out


def left_for(spec: Spec, workload: Workload, cluster: Cluster) -> tuple[int, str]:
    """Replicas ``workload`` can be placed as after the others on its pools take their most.

    Another workload's demand counts against this one's pools up to what it can hold on the
    pools both may use (it may also run elsewhere, but nothing keeps it there).
    """
    pools = workload_pools(spec, workload)[cluster.name]
    names = {p.name for p in pools}
    by_name = {p.name: p for p in cluster.node_pools}
    total = sum(pool_units(cluster, p) for p in pools)
    taken = 0
    for other in demands(spec, cluster):
        if other.workload.name == workload.name:
            continue
        shared = [by_name[n] for n in other.pools if n in names]
        taken += min(other.units, sum(pool_units(cluster, p) for p in shared))
    gpus = on(workload, cluster.name).gpus
    fits = placeable(cluster, pools, gpus)
    left = max(total - taken, 0) // gpus
    parts = " + ".join(
        f"{p.name} ({pool_node_bounds(cluster, p)[1]} nodes x {units_per_node(cluster, p)} GPU units)"
        for p in pools
    )
    text = f"at max_nodes, pool{'s' if len(pools) > 1 else ''} {parts}"
    if taken:
        text += f", less {taken} GPU units other workloads may take"
    return min(fits, left), text


def groups(spec: Spec, cluster: Cluster) -> list[tuple[list[Demand], list[NodePool]]]:
    """Workloads connected by the pools they share, with those pools (two or more workloads)."""
    remaining = list(demands(spec, cluster))
    by_name = {p.name: p for p in cluster.node_pools}
    out = []
    while remaining:
        group = [remaining.pop(0)]
        pools = set(group[0].pools)
        grew = True
        while grew:
            grew = False
            for d in list(remaining):
                if pools & set(d.pools):
                    group.append(d)
                    pools |= set(d.pools)
                    remaining.remove(d)
                    grew = True
        if len(group) > 1:
            ordered = [by_name[n] for n in by_name if n in pools]
            out.append((sorted(group, key=lambda d: d.index), ordered))
    return out
