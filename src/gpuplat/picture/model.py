"""What the picture shows, independent of the drawing format.

Environments, in the order the spec declares them, hold clusters (cloud, region, $/month at the
floor and the ceiling), clusters hold pools (shape, GPUs, capacity type, min..max nodes, $/month
at the floor and the ceiling, and the stranded units of ``gpuplat cost --stranded``: paid idle
apart from free headroom); workloads (replicas, GPUs per replica, sharing) point at the pools
they run on, each arrow by the workload's role on that cluster (active, warm or cold standby).
Node ids are positional (``e0c1p2``), so no spec text ever becomes part of the drawing's syntax;
names appear only in labels, escaped by each format.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpuplat.cost.estimate import EnvCost, PoolCost
from gpuplat.cost.money import Amount, total
from gpuplat.cost.stranded import Finding
from gpuplat.spec.model import Cluster, NodePool, Role, Spec
from gpuplat.spec.resolve import resolve_pool, workload_pools
from gpuplat.spec.roles import role_of
from gpuplat.spec.units import workload_unit
from gpuplat.targets import pool_node_bounds, target


@dataclass(frozen=True, slots=True)
class Box:
    """A node of the drawing: its id and its label lines.

    ``kind`` is a pool's (or rung's) capacity type, which each format draws in its own style;
    a capacity ladder is a framed group (``lines`` its label) of ``rungs`` in order, the first
    rung taking the pool's id so edges to the pool land on it.
    """

    id: str
    lines: tuple[str, ...]
    kind: str | None = None
    rungs: tuple[Box, ...] = ()
    paid_idle: bool = False
    """Some of the pool's units are paid for and idle at the ceiling (drawn in alarm)."""


@dataclass(frozen=True, slots=True)
class ClusterBox:
    id: str
    lines: tuple[str, ...]
    pools: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    role: Role
    """The workload's role on the target's cluster: ``active`` serves, ``warm`` is a standby
    running its warm replicas, ``cold`` a standby that starts on failover."""

    @property
    def primary(self) -> bool:
        return self.role == "active"


@dataclass(frozen=True, slots=True)
class EnvBox:
    id: str
    title: str
    clusters: tuple[ClusterBox, ...]
    workloads: tuple[Box, ...]
    edges: tuple[Edge, ...]


def picture(
    envs: Sequence[tuple[str, Spec, EnvCost, Sequence[Finding]]],
) -> tuple[EnvBox, ...]:
    """The boxes and edges of each environment.

    Args:
        envs: (name, spec, cost estimate, stranded findings) of each environment, in the
            order the spec declares them.

    Returns:
        One box per environment.
    """
    out = []
    for e, (name, spec, cost, findings) in enumerate(envs):
        ids: dict[tuple[str, str], str] = {}
        clusters = []
        for c, (cluster, priced) in enumerate(zip(spec.clusters, cost.clusters, strict=True)):
            pools = []
            for p, (pool, pc) in enumerate(zip(cluster.node_pools, priced.pools, strict=True)):
                box_id = f"e{e}c{c}p{p}"
                ids[(cluster.name, pool.name)] = box_id
                found = [f for f in findings if (f.cluster, f.pool) == (cluster.name, pool.name)]
                pools.append(pool_box(box_id, cluster, pool, pc, found))
            floor, most = priced.total("floor").text(), priced.total("ceiling").text()
            clusters.append(
                ClusterBox(
                    f"e{e}c{c}",
                    (
                        f"cluster {cluster.name}",
                        f"{cluster.cloud} {cluster.region}",
                        f"{floor} floor .. {most} ceiling a month",
                        "(with system pool, fee, disks, network)",
                    ),
                    tuple(pools),
                )
            )
        workloads = []
        edges = []
        for w, workload in enumerate(spec.workloads):
            box_id = f"e{e}w{w}"
            targets = workload_pools(spec, workload)
            sharing = any(p.sharing.mode != "none" for ps in targets.values() for p in ps)
            unit = workload_unit(spec, workload)
            noun = "slice" if sharing else "GPU"
            plain = f"{workload.gpus} {noun}{'s' if workload.gpus != 1 else ''}"
            lines = (
                f"workload {workload.name}",
                f"{workload.replicas.min}..{workload.replicas.max} replicas",
                f"{unit.each(workload.gpus) if unit is not None else plain} each",
            )
            if workload.multi_host is not None:
                # A replica is a group of whole nodes: drawn as one, counted in nodes and GPUs.
                nodes = workload.multi_host.nodes
                lines = (
                    f"workload {workload.name}",
                    f"{workload.replicas.min}..{workload.replicas.max} groups of {nodes} nodes",
                    f"{nodes} x {plain} = {nodes * workload.gpus} GPUs a group",
                )
            workloads.append(Box(box_id, lines))
            for cluster_name, pools_of in workload_pools(spec, workload).items():
                for pool in pools_of:
                    target = ids.get((cluster_name, pool.name))
                    if target is not None:
                        edges.append(Edge(box_id, target, role_of(workload, cluster_name)))
        out.append(EnvBox(f"e{e}", name, tuple(clusters), tuple(workloads), tuple(edges)))
    return tuple(out)


def stranded_lines(findings: Sequence[Finding], noun: str) -> tuple[tuple[str, ...], bool]:
    """What a pool strands, for its label: units paid for and idle (on nodes that run anyway)
    apart from free headroom (nodes created only when used); and whether any is paid idle."""
    kept = [f for f in findings if f.kind != "short"]
    idle = sum(f.units for f in kept)
    free = sum(f.headroom_units for f in kept)
    out = []
    if idle:
        cost = total(f.wasted for f in kept)
        out.append(f"STRANDED, paid idle: {idle} {noun}, {_month(cost)}")
    if free:
        cost = total(f.headroom for f in kept)
        out.append(f"free headroom: {free} {noun} ({_month(cost)} once used)")
    return tuple(out), idle > 0


def _month(amount: Amount) -> str:
    return f"{amount.text()}/month"


def pool_box(
    box_id: str,
    cluster: Cluster,
    pool: NodePool,
    priced: PoolCost,
    findings: Sequence[Finding] = (),
) -> Box:
    """A pool's box: its shape, GPUs, capacity, node range, floor and ceiling, what it
    strands; a ladder's rungs."""
    gpu = resolve_pool(cluster, pool)
    per = gpu.gpus_per_node if gpu.gpus_per_node is not None else "?"
    slices = f", {gpu.units_per_node} slices" if pool.sharing.mode != "none" else ""
    shape = f"{pool.machine_type}: {per} x {gpu.accelerator or '?'}{slices}"
    most = f"{priced.floor.cost.text()} floor .. {priced.ceiling.cost.text()} ceiling a month" + (
        " (unverified price)" if priced.unverified else ""
    )
    nodes = f"{priced.min_nodes}..{priced.max_nodes} nodes"
    idle, paid = stranded_lines(findings, "slices" if slices else "GPUs")
    if priced.capacity != "ladder":
        lines = (f"pool {pool.name}", shape, f"{priced.capacity}, {nodes}", most, *idle)
        return Box(box_id, lines, priced.capacity, paid_idle=paid)
    rungs = []
    ladder = target(cluster.cloud).ladder(cluster, pool).rungs
    for i, (rung, rate) in enumerate(zip(ladder, priced.rungs, strict=True)):
        kind = rung.kind or "on-demand"
        named = rung.reservation or rung.block
        low, high = pool_node_bounds(cluster, rung.pool)
        price = (
            "price unknown" if rate.usd_per_hour is None else f"{rate.usd_per_hour:g} $/h a node"
        )
        rungs.append(
            Box(
                box_id if i == 0 else f"{box_id}r{i}",
                (
                    f"rung {i + 1}: {kind}" + (f" {named}" if named else ""),
                    f"{rung.pool.machine_type}, {low}..{high} nodes",
                    price + (" (unverified price)" if rate.unverified else ""),
                ),
                kind,
            )
        )
    frame = (f"ladder {pool.name}, {nodes} in all", shape, most, *idle)
    return Box(box_id, frame, "ladder", tuple(rungs), paid_idle=paid)
