"""Where the workloads' replicas land: replicas packed onto their pools' nodes, preferred first.

The same packing answers two questions: how many nodes the replicas that always run need (the
expected cost), and how much of a pool the workloads can use at their most replicas (stranded
GPUs). Replicas are placed largest first onto the first node with room (first-fit decreasing),
in the workload's pool order; a pool opens nodes up to its ``max_nodes``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import resolve_pool, workload_pools
from gpuplat.spec.roles import on
from gpuplat.targets import pool_node_bounds

PoolKey = tuple[str, str]
"""(cluster name, pool name)."""


@dataclass
class PoolFill:
    """What the packing put on one pool."""

    units_per_node: int | None
    max_nodes: int
    free: list[int] = field(default_factory=list)
    """Free schedulable units of each node opened, in the order they were opened."""
    placed: dict[str, int] = field(default_factory=dict)
    """Replicas placed per workload name."""

    @property
    def nodes(self) -> int:
        return len(self.free)

    @property
    def used_units(self) -> int:
        if self.units_per_node is None:
            return 0
        return self.units_per_node * self.nodes - sum(self.free)

    def take(self, units: int) -> bool:
        """Place one replica of ``units``; False when the pool has no room left for it."""
        if self.units_per_node is None or units > self.units_per_node or units <= 0:
            return False
        for index, free in enumerate(self.free):
            if free >= units:
                self.free[index] = free - units
                return True
        if self.nodes >= self.max_nodes:
            return False
        self.free.append(self.units_per_node - units)
        return True


@dataclass
class Packing:
    """Every pool's fill, and the replicas of each workload that found no room."""

    pools: dict[PoolKey, PoolFill]
    short: dict[str, int]
    """Workload name -> replicas that fit on none of its pools (summed over its clusters)."""


def pack(spec: Spec, replicas: Callable[[Workload, str], int]) -> Packing:
    """Pack each workload's replicas onto its pools, cluster by cluster.

    Args:
        spec: The environment's spec.
        replicas: How many replicas of a workload to place on a cluster (e.g. what its role
            there always runs, or its max on every cluster it may fail over to).

    Returns:
        The fill of every pool of every cluster, and what did not fit.
    """
    fills: dict[PoolKey, PoolFill] = {}
    for cluster in spec.clusters:
        for pool in cluster.node_pools:
            fills[(cluster.name, pool.name)] = _empty(cluster, pool)
    short: dict[str, int] = {}
    clusters = {c.name: c for c in spec.clusters}
    ordered = sorted(spec.workloads, key=lambda w: -w.gpus)
    for workload in ordered:
        pools = workload_pools(spec, workload)
        for name in workload.clusters:
            if name not in clusters:
                continue
            # A multi-host replica is a group of group_size pods, each on a node of its own.
            left = replicas(workload, name) * workload.group_size
            gpus = on(workload, name).gpus
            for pool in pools.get(name, []):
                fill = fills[(name, pool.name)]
                while left and fill.take(gpus):
                    left -= 1
                    fill.placed[workload.name] = fill.placed.get(workload.name, 0) + 1
            if left:
                short[workload.name] = short.get(workload.name, 0) + left
    return Packing(fills, short)


def _empty(cluster: Cluster, pool: NodePool) -> PoolFill:
    return PoolFill(resolve_pool(cluster, pool).units_per_node, pool_node_bounds(cluster, pool)[1])


def targeted(spec: Spec) -> set[PoolKey]:
    """The pools at least one workload may run on (in any of its clusters)."""
    out: set[PoolKey] = set()
    for workload in spec.workloads:
        for name, pools in workload_pools(spec, workload).items():
            out.update((name, pool.name) for pool in pools)
    return out
