"""What the picture shows, independent of the drawing format.

Environments hold clusters (cloud, region, $/month at the ceiling), clusters hold pools (shape,
GPUs, capacity type, min..max nodes, $/month at the ceiling); workloads (replicas, GPUs per
replica, sharing) point at the pools they run on: solid to their first cluster's pools, dashed
to the clusters they fail over to. Node ids are positional (``e0c1p2``), so no spec text ever
becomes part of the drawing's syntax; names appear only in labels, escaped by each format.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpuplat.cost.estimate import EnvCost
from gpuplat.spec.model import Spec
from gpuplat.spec.resolve import resolve_pool, workload_pools
from gpuplat.spec.units import workload_unit


@dataclass(frozen=True, slots=True)
class Box:
    """A node of the drawing: its id and its label lines."""

    id: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClusterBox:
    id: str
    lines: tuple[str, ...]
    pools: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    primary: bool


@dataclass(frozen=True, slots=True)
class EnvBox:
    id: str
    title: str
    clusters: tuple[ClusterBox, ...]
    workloads: tuple[Box, ...]
    edges: tuple[Edge, ...]


def picture(envs: Sequence[tuple[str, Spec, EnvCost]]) -> tuple[EnvBox, ...]:
    """The boxes and edges of each environment.

    Args:
        envs: (name, spec, cost estimate) of each environment, in order.

    Returns:
        One box per environment.
    """
    out = []
    for e, (name, spec, cost) in enumerate(envs):
        ids: dict[tuple[str, str], str] = {}
        clusters = []
        for c, (cluster, priced) in enumerate(zip(spec.clusters, cost.clusters, strict=True)):
            pools = []
            for p, (pool, pc) in enumerate(zip(cluster.node_pools, priced.pools, strict=True)):
                box_id = f"e{e}c{c}p{p}"
                ids[(cluster.name, pool.name)] = box_id
                gpu = resolve_pool(cluster, pool)
                per = gpu.gpus_per_node if gpu.gpus_per_node is not None else "?"
                share = pool.sharing.mode
                slices = f", {gpu.units_per_node} slices" if share != "none" else ""
                pools.append(
                    Box(
                        box_id,
                        (
                            f"pool {pool.name}",
                            f"{pool.machine_type}: {per} x {gpu.accelerator or '?'}{slices}",
                            f"{pc.capacity}, {pc.min_nodes}..{pc.max_nodes} nodes",
                            f"{pc.ceiling.cost.text()}/month at max"
                            + (" (unverified price)" if pc.unverified else ""),
                        ),
                    )
                )
            total = priced.total("ceiling").text()
            clusters.append(
                ClusterBox(
                    f"e{e}c{c}",
                    (
                        f"cluster {cluster.name}",
                        f"{cluster.cloud} {cluster.region}",
                        f"{total}/month at max (with system pool, fee, disks, network)",
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
            workloads.append(
                Box(
                    box_id,
                    (
                        f"workload {workload.name}",
                        f"{workload.replicas.min}..{workload.replicas.max} replicas",
                        f"{unit.each(workload.gpus) if unit is not None else plain} each",
                    ),
                )
            )
            for index, (cluster_name, pools_of) in enumerate(
                workload_pools(spec, workload).items()
            ):
                for pool in pools_of:
                    target = ids.get((cluster_name, pool.name))
                    if target is not None:
                        edges.append(Edge(box_id, target, index == 0))
        out.append(EnvBox(f"e{e}", name, tuple(clusters), tuple(workloads), tuple(edges)))
    return tuple(out)
