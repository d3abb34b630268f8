"""Stranded GPUs: capacity the workloads cannot use, and what it costs at the ceiling.

Per pool, four findings:

- ``indivisible``: a node's schedulable units (GPUs, MIG instances or shared slices) are not a
  multiple of the replica size, so the remainder of every node is idle;
- ``unused-at-max``: with every workload at ``replicas.max`` (on every cluster it may fail over
  to), whole nodes or slices of the pool are still empty;
- ``untargeted``: no workload may run on the pool at all;
- ``short``: a workload's ``replicas.max`` do not fit on its pools (no money is wasted: the
  replicas are missing; the cost is what the missing nodes would add).

Each finding's idle units are split by whether they are paid for: idle units on nodes that run
anyway (a pool's ``min_nodes``, a reservation's committed nodes, the nodes the replicas hold) are
``wasted``, paid whether used or not; the rest is ``headroom``, nodes the autoscaler creates only
when replicas need them, which cost nothing until then. Both are priced as the share of the
pool's ceiling cost their units are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from gpuplat.cost.estimate import COMMITTED, EnvCost, PoolCost
from gpuplat.cost.money import Amount, amount_json, per_node
from gpuplat.cost.placement import PoolKey, pack, targeted
from gpuplat.spec.model import NodePool, Spec
from gpuplat.spec.resolve import resolve_pool, workload_pools
from gpuplat.spec.roles import on

Kind = Literal["indivisible", "unused-at-max", "untargeted", "short"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One stranded-capacity finding."""

    kind: Kind
    cluster: str
    pool: str
    units: int
    """Idle units at the ceiling (``short``: replicas that do not fit)."""
    wasted: Amount
    """Cost per hour of the idle units that are paid for: on nodes that run anyway (``short``:
    of the missing nodes)."""
    detail: str
    workload: str | None = None
    headroom: Amount = field(default_factory=Amount)
    """Cost per hour of the idle units on nodes created only when used: free until then."""
    headroom_units: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "cluster": self.cluster,
            "pool": self.pool,
            "workload": self.workload,
            "units": self.units,
            "wasted": amount_json(self.wasted),
            "headroom_units": self.headroom_units,
            "headroom": amount_json(self.headroom),
            "detail": self.detail,
        }


def stranded(spec: Spec, cost: EnvCost) -> list[Finding]:
    """Every stranded-capacity finding of one environment.

    Args:
        spec: The environment's spec.
        cost: Its cost estimate (for the pools' ceiling prices).

    Returns:
        Findings, per pool in spec order.
    """
    at_max = pack(spec, lambda w, cluster: on(w, cluster).replicas.max)
    aimed = targeted(spec)
    pools = {(p.cluster, p.name): p for p in cost.pools()}
    clusters = {c.name: c for c in spec.clusters}
    out: list[Finding] = []
    for cluster in spec.clusters:
        for node_pool in cluster.node_pools:
            key: PoolKey = (cluster.name, node_pool.name)
            pool = pools[key]
            units = resolve_pool(cluster, node_pool).units_per_node
            if units is None or pool.max_nodes == 0:
                continue
            capacity = units * pool.max_nodes
            # Nodes that run whatever the replicas need: the floor, or all a reservation holds.
            held = pool.max_nodes if pool.capacity in COMMITTED else pool.min_nodes
            if key not in aimed:
                paid = held * units
                out.append(
                    Finding(
                        "untargeted",
                        *key,
                        paid,
                        _share(pool, paid, capacity),
                        f"no workload runs on it: all {capacity} units idle at {pool.max_nodes} "
                        f"nodes, {paid} of them on nodes that run anyway",
                        headroom=_share(pool, capacity - paid, capacity),
                        headroom_units=capacity - paid,
                    )
                )
                continue
            fill = at_max.pools[key]
            sizes = {w.gpus for w in spec.workloads if w.name in fill.placed} or {
                w.gpus for w in spec.workloads if _targets(spec, w.name, key)
            }
            remainder = min(units % size for size in sizes) if sizes else 0
            if remainder:
                idle = remainder * pool.max_nodes
                out.append(
                    Finding(
                        "indivisible",
                        *key,
                        idle,
                        _share(pool, idle, capacity),
                        f"{units} units per node, replicas of {', '.join(map(str, sorted(sizes)))}:"
                        f" {remainder} per node never used ({idle} at {pool.max_nodes} nodes)",
                    )
                )
            unused = capacity - fill.used_units - remainder * pool.max_nodes
            if unused > 0:
                running = min(pool.max_nodes, max(fill.nodes, held))
                paid = min(unused, max(0, (units - remainder) * running - fill.used_units))
                out.append(
                    Finding(
                        "unused-at-max",
                        *key,
                        paid,
                        _share(pool, paid, capacity),
                        f"at most replicas the workloads use {fill.used_units} of {capacity} "
                        f"units ({fill.nodes} of {pool.max_nodes} nodes): {paid} idle on nodes "
                        f"that run, {unused - paid} headroom on nodes not created until used",
                        headroom=_share(pool, unused - paid, capacity),
                        headroom_units=unused - paid,
                    )
                )
    for workload in spec.workloads:
        missing = at_max.short.get(workload.name, 0)
        if not missing:
            continue
        names = [n for n in workload.clusters if n in clusters]
        candidates = [
            pools[(n, p.name)] for n in names for p in workload_pools(spec, workload).get(n, [])
        ]
        first = candidates[0] if candidates else None
        extra = Amount()
        where = ("-", "-")
        if first is not None:
            per = resolve_pool(clusters[first.cluster], _pool(spec, first)).units_per_node or 0
            fit = per // workload.gpus if workload.gpus else 0
            nodes = -(-missing // fit) if fit else 0
            rate = first.rungs[0]
            extra = per_node(rate.usd_per_hour, rate.unknown, nodes)
            where = (first.cluster, first.name)
        out.append(
            Finding(
                "short",
                *where,
                missing,
                extra,
                f"{workload.name}: {-(-missing // workload.group_size)} of its max replicas do not fit "
                f"on its pools",
                workload.name,
            )
        )
    return out


def _share(pool: PoolCost, idle: int, capacity: int) -> Amount:
    ceiling = pool.ceiling.cost
    if ceiling.partial:
        return ceiling
    return Amount(ceiling.usd_per_hour * idle / capacity)


def _targets(spec: Spec, workload: str, key: PoolKey) -> bool:
    for w in spec.workloads:
        if w.name == workload:
            return any(p.name == key[1] for p in workload_pools(spec, w).get(key[0], []))
    return False


def _pool(spec: Spec, pool: PoolCost) -> NodePool:
    cluster = next(c for c in spec.clusters if c.name == pool.cluster)
    return next(p for p in cluster.node_pools if p.name == pool.name)
