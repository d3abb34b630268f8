"""The cost of an environment: per cluster and pool, at the floor, expected and the ceiling.

- floor: every pool at ``min_nodes`` (what the platform costs when idle), as the cloud creates
  it: GKE creates the same number of nodes in every zone, ``ceil(min_nodes / zones)`` each;
- expected: the nodes the replicas that always run need (``replicas.min`` where a workload is
  active, ``warm_replicas`` where it is a warm standby), never below ``min_nodes`` (gpuplat has
  no traffic forecast);
- ceiling: every pool at ``max_nodes`` (the most the platform can cost).

GPU pools are priced by :func:`gpuplat.cost.rates.pool_rungs`; each cluster also has its fee
and its system pool (on-demand, floor = its min, ceiling = its max).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from gpuplat import clock
from gpuplat.cost.lines import BillLine, Counts, cluster_lines
from gpuplat.cost.money import Amount, per_node, total
from gpuplat.cost.placement import pack
from gpuplat.cost.rates import (
    Rate,
    capacity_label,
    cluster_fee_rate,
    pool_ceiling_rungs,
    pool_rungs,
    system_rate,
)
from gpuplat.spec.diagnostics import KeyPath
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import resolve_pool
from gpuplat.spec.roles import bounds
from gpuplat.targets import pool_node_bounds, target

LevelName = Literal["floor", "expected", "ceiling"]
LEVELS: tuple[LevelName, ...] = ("floor", "expected", "ceiling")


@dataclass(frozen=True, slots=True)
class Level:
    """Nodes, physical GPUs and their cost at one level."""

    nodes: int
    gpus: int | None
    cost: Amount

    def __add__(self, other: Level) -> Level:
        gpus = None if self.gpus is None or other.gpus is None else self.gpus + other.gpus
        return Level(self.nodes + other.nodes, gpus, self.cost + other.cost)


EMPTY = Level(0, 0, Amount())


@dataclass(frozen=True, slots=True)
class PoolCost:
    """One GPU pool's cost at each level."""

    cluster: str
    name: str
    path: KeyPath
    machine_type: str
    accelerator: str | None
    gpus_per_node: int | None
    capacity: str
    rungs: tuple[Rate, ...]
    ceiling_rungs: tuple[Rate, ...]
    """The most a node of each rung can cost (a spot price bounded by on-demand or max_price)."""
    min_nodes: int
    max_nodes: int
    floor: Level
    expected: Level
    ceiling: Level

    def at(self, level: LevelName) -> Level:
        return {"floor": self.floor, "expected": self.expected, "ceiling": self.ceiling}[level]

    @property
    def unverified(self) -> bool:
        """Some rung's price is not confirmed by a second source (or is another region's)."""
        return any(r.unverified for r in self.rungs)


@dataclass(frozen=True, slots=True)
class SystemPoolCost:
    """A cluster's system (CPU) pool: floor at its min nodes, ceiling at its max."""

    machine_type: str
    rate: Rate
    min_nodes: int
    max_nodes: int

    def at(self, level: LevelName) -> Amount:
        nodes = self.max_nodes if level == "ceiling" else self.min_nodes
        return per_node(self.rate.usd_per_hour, self.rate.unknown, nodes)


@dataclass(frozen=True, slots=True)
class ClusterCost:
    """One cluster: its fee, system pool and GPU pools."""

    name: str
    cloud: str
    region: str
    path: KeyPath
    fee: Rate
    system: SystemPoolCost
    pools: tuple[PoolCost, ...]
    fee_tier: str | None = None
    """The fee's tier when it is not the default one (``extended``: the minor is in extended
    support on the day priced)."""
    not_counted: tuple[str, ...] = ()
    """What the cluster is billed for that no amount here includes (said, not hidden)."""
    lines: tuple[BillLine, ...] = ()
    """Boot disks, NAT, load balancer and public IPv4 (cost/lines.py), counted in the total."""

    def gpu(self, level: LevelName) -> Level:
        return _sum(p.at(level) for p in self.pools)

    def fee_amount(self) -> Amount:
        return per_node(self.fee.usd_per_hour, self.fee.unknown, 1)

    def other(self, level: LevelName) -> Amount:
        """The bill's lines beside nodes and fee (:attr:`lines`) at one level."""
        return total(line.at(level) for line in self.lines)

    def total(self, level: LevelName) -> Amount:
        return self.gpu(level).cost + self.system.at(level) + self.fee_amount() + self.other(level)


@dataclass(frozen=True, slots=True)
class EnvCost:
    """An environment's clusters and totals."""

    name: str
    clusters: tuple[ClusterCost, ...]
    gpu_budget: float | None = None

    def pools(self) -> tuple[PoolCost, ...]:
        return tuple(p for c in self.clusters for p in c.pools)

    def gpu(self, level: LevelName) -> Level:
        return _sum(c.gpu(level) for c in self.clusters)

    def total(self, level: LevelName) -> Amount:
        return total(c.total(level) for c in self.clusters)

    def by_capacity(self, level: LevelName) -> dict[str, Level]:
        out: dict[str, Level] = {}
        for pool in self.pools():
            out[pool.capacity] = out.get(pool.capacity, EMPTY) + pool.at(level)
        return dict(sorted(out.items()))


def _sum(levels: Iterable[Level]) -> Level:
    out = EMPTY
    for level in levels:
        out = out + level
    return out


def estimate(name: str, spec: Spec, today: date | None = None) -> EnvCost:
    """Price one environment's spec.

    Args:
        name: The environment's name.
        spec: Its merged, validated spec.
        today: The day to price the clusters' fees on (a minor in extended support costs
            more); None for :func:`gpuplat.clock.today`.

    Returns:
        The cost of every cluster and pool at the floor, expected and ceiling levels.
    """
    on = today if today is not None else clock.today()
    env = next((e for e in spec.environments if e.name == name), None)
    protected = env is not None and env.is_protected()
    expected = pack(spec, lambda w, cluster: bounds(w, cluster).low)
    clusters = []
    for i, cluster in enumerate(spec.clusters):
        pools = []
        for j, pool in enumerate(cluster.node_pools):
            fill = expected.pools[(cluster.name, pool.name)]
            path: KeyPath = ("clusters", i, "node_pools", j)
            pools.append(pool_cost(cluster, pool, path, fill.nodes))
        machine, rate = system_rate(cluster)
        # The floor is what the cloud creates for the minimum (GKE: the same count per zone).
        fewest = target(cluster.cloud).min_nodes_created(cluster, None)
        system = SystemPoolCost(machine, rate, fewest, cluster.system_pool.max_nodes)
        tier = target(cluster.cloud).fee_tier(cluster, on)
        counts = [
            Counts(pool, p.floor.nodes, p.expected.nodes, p.ceiling.nodes)
            for pool, p in zip(cluster.node_pools, pools, strict=True)
        ]
        counts.append(Counts(None, fewest, fewest, cluster.system_pool.max_nodes))
        lines, unpriced = cluster_lines(cluster, protected, counts)
        clusters.append(
            ClusterCost(
                cluster.name,
                cluster.cloud,
                cluster.region,
                ("clusters", i),
                cluster_fee_rate(cluster.cloud, tier),
                system,
                tuple(pools),
                tier,
                unpriced,
                lines,
            )
        )
    budget = env.budget.gpu_monthly_usd if env is not None and env.budget is not None else None
    return EnvCost(name, tuple(clusters), budget)


def pool_cost(cluster: Cluster, pool: NodePool, path: KeyPath, needed_nodes: int = 0) -> PoolCost:
    """One pool's cost; ``needed_nodes`` is what the expected replicas need."""
    gpu = resolve_pool(cluster, pool)
    low, high = pool_node_bounds(cluster, pool)
    rungs = pool_rungs(cluster, pool)
    mid = min(max(low, needed_nodes), high)
    # Each rung's node pool may alone hold the whole cap, in its own zones and shape.
    rung_highs = tuple(
        pool_node_bounds(cluster, r.pool)[1]
        for r in target(cluster.cloud).ladder(cluster, pool).rungs
    )
    per = gpu.gpus_per_node
    most = pool_ceiling_rungs(cluster, pool)
    return PoolCost(
        cluster.name,
        pool.name,
        path,
        pool.machine_type,
        gpu.accelerator,
        per,
        capacity_label(cluster, pool),
        rungs,
        most,
        low,
        high,
        _level(rungs, rung_highs, low, per, ceiling=False),
        _level(rungs, rung_highs, mid, per, ceiling=False),
        _level(most, rung_highs, high, per, ceiling=True),
    )


COMMITTED = ("reservation", "capacity-block")
"""Capacity billed for all it holds whether nodes run on it or not."""


def committed(rungs: tuple[Rate, ...], nodes: tuple[int, ...]) -> Amount:
    """What a pool's reservations and Capacity Blocks cost whatever runs: each at the most
    nodes its rung may hold (the count gpuplat takes the reservation to hold)."""
    return total(
        per_node(r.usd_per_hour, r.unknown, n)
        for r, n in zip(rungs, nodes, strict=True)
        if r.capacity in COMMITTED
    )


def _level(
    rungs: tuple[Rate, ...],
    rung_nodes: tuple[int, ...],
    nodes: int,
    gpus: int | None,
    *,
    ceiling: bool,
) -> Level:
    """Cost of ``nodes`` nodes, with every reservation and Capacity Block at its committed
    count (:func:`committed`, billed at every level).

    Below the ceiling the nodes run on the preferred rung (nothing more when it is committed
    capacity, which holds them). At the ceiling, the other rungs may fill the cap while the
    committed capacity sits idle: the dearest of them at its most nodes
    (:func:`ladder_ceiling`).
    """
    count = None if gpus is None else gpus * nodes
    held = committed(rungs, rung_nodes)
    others = [(r, n) for r, n in zip(rungs, rung_nodes, strict=True) if r.capacity not in COMMITTED]
    if not ceiling:
        rate = rungs[0]
        running = (
            Amount()
            if rate.capacity in COMMITTED
            else per_node(rate.usd_per_hour, rate.unknown, nodes)
        )
        return Level(nodes, count, held + running)
    if not others:
        return Level(nodes, count, held)
    if len(rungs) == 1:
        rate = rungs[0]
        return Level(nodes, count, per_node(rate.usd_per_hour, rate.unknown, nodes))
    rest = ladder_ceiling(tuple(r for r, _ in others), tuple(n for _, n in others))
    return Level(nodes, count, held + rest)


def ladder_ceiling(rungs: tuple[Rate, ...], nodes: tuple[int, ...]) -> Amount:
    """The most a ladder's uncommitted rungs can cost: the autoscaler may fill the cap from any
    of them, so the dearest rung at its most nodes. A rung of unknown price does not lose the
    known ones: the amount is the dearest known rung's, partial (a lower bound) naming every
    unknown rung. ``plan`` prices a ladder's rung node pools the same way (cost/planned.py)."""
    priced = [per_node(r.usd_per_hour, r.unknown, n) for r, n in zip(rungs, nodes, strict=True)]
    dearest = max((a.usd_per_hour for a in priced), default=0.0)
    return Amount(dearest, tuple(dict.fromkeys(u for a in priced for u in a.unknown)))
