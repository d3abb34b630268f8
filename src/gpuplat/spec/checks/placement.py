"""Workloads that share pools: their GPU units at max, and the node disk their copied weights fill.

Each workload is checked on its own elsewhere; here the workloads of one cluster are added up
where they may land on the same nodes (workload/capacity.py has the arithmetic).
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets import target
from gpuplat.workload.capacity import (
    groups,
    max_replicas_on,
    per_node,
    pool_units,
    units_per_node,
)
from gpuplat.workload.weights import copy_size_gib, fuse_cache_gib

IMAGE_RESERVE_GB = 50
"""Boot disk kept for container images (model-server images are often 10-20 GB)."""


def check(spec: Spec, loc: Locator, broken: set[tuple[str, str]]) -> Iterator[Diagnostic]:
    """Over-subscribed shared pools and node disks too small for the copied weights."""
    for cluster in spec.clusters:
        for group, pools in groups(spec, cluster):
            if any(
                (cluster.name, p.name) in broken or not units_per_node(cluster, p) for p in pools
            ):
                continue
            demand = sum(d.units for d in group)
            capacity = sum(pool_units(cluster, p) for p in pools)
            if demand <= capacity:
                continue
            last = group[-1]
            yield loc.error(
                ("workloads", last.index, "replicas", "max"),
                f"workloads {', '.join(d.workload.name for d in group)} may take {demand} GPU "
                f'units of cluster "{cluster.name}" at their replicas.max; pools '
                f"{', '.join(p.name for p in pools)} hold {capacity} at max_nodes",
                "lower replicas.max, or raise the pools' max_nodes: at max one workload's "
                "autoscaler would starve another's",
                details=tuple(
                    f"{d.workload.name}: {d.units // d.workload.gpus} replicas x "
                    f"{d.workload.gpus} GPU unit(s) = {d.units} on {', '.join(d.pools)}"
                    for d in group
                ),
            )
        residents = _residents(spec, cluster)
        for pool in cluster.node_pools:
            if (cluster.name, pool.name) not in broken and id(pool) in residents:
                yield from _disk(spec, cluster, pool, loc, residents[id(pool)])


def _residents(spec: Spec, cluster: Cluster) -> dict[int, list[int]]:
    """Pool (by identity) -> indexes of the workloads with weights on disk that may run there.

    Asked once per cluster rather than once per pool and workload: a spec of thousands of
    pools has few workloads, and most pools take none of them.
    """
    out: dict[int, list[int]] = {}
    for i, workload in enumerate(spec.workloads):
        if _on_disk_gib(workload, cluster) is None:
            continue
        for pool in workload_pools(spec, workload).get(cluster.name, []):
            out.setdefault(id(pool), []).append(i)
    return out


def _on_disk_gib(workload: Workload, cluster: Cluster) -> int | None:
    """Boot disk one replica's weights take: a copy, or a Cloud Storage FUSE file cache."""
    mount = workload.model.mount
    if mount == "gcsfuse" and "gcsfuse" in target(cluster.cloud).weight_mounts:
        if workload.model.fuse_cache == "memory":
            return None  # in the replica's memory request, not on the disk
        return fuse_cache_gib(workload.model.size_gb)
    if mount in ("copy", "gcsfuse"):  # gcsfuse where the cloud has no FUSE driver: copied
        return copy_size_gib(workload.model.size_gb)
    return None


def _disk(
    spec: Spec, cluster: Cluster, pool: NodePool, loc: Locator, residents: list[int]
) -> Iterator[Diagnostic]:
    """Copied weights (or FUSE file caches) of the replicas one node holds must fit its disk."""
    ephemeral = target(cluster.cloud).ephemeral_disk(pool)
    if ephemeral is None:
        return
    allocatable = ephemeral.allocatable_gb
    room = allocatable - IMAGE_RESERVE_GB
    worst: tuple[int, int, int] | None = None  # (GiB, workload index, replicas per node)
    for i in residents:
        workload = spec.workloads[i]
        # No more replicas on a node than the workload ever runs.
        count = min(per_node(cluster, pool, workload.gpus), max_replicas_on(workload, cluster))
        need = count * (_on_disk_gib(workload, cluster) or 0)
        if count and (worst is None or need > worst[0]):
            worst = (need, i, count)
    if worst is None or worst[0] <= room:
        return
    need, index, count = worst
    workload = spec.workloads[index]
    size = _on_disk_gib(workload, cluster)
    disk = ephemeral.size_gb
    cached = workload.model.mount == "gcsfuse" and size == fuse_cache_gib(workload.model.size_gb)
    what = "Cloud Storage FUSE file caches" if cached else "weights"
    verb = "fill" if cached else "copy"
    yield loc.error(
        ("workloads", index, "model", "size_gb"),
        f'{count} replica(s) per node of pool "{pool.name}" in cluster "{cluster.name}" {verb} '
        f"{count} x {size} GiB = {need} GiB of {what} onto {ephemeral.label} that leaves "
        f"{max(room, 0):.0f} GB for them",
        _more_disk(cluster, pool)
        + ("" if cached else ", or mount the weights (model.mount: gcsfuse on GKE)"),
        details=(
            f"{disk} GB - {disk - allocatable:.0f} GB the kubelet "
            f"keeps - {IMAGE_RESERVE_GB} GB for images = {room:.0f} GB",
        ),
    )


def _more_disk(cluster: Cluster, pool: NodePool) -> str:
    """What gives the pool's nodes more room: more SSDs or a larger boot disk, or the local
    SSDs its machine type comes with where the cloud can hold ephemeral storage there."""
    shape = catalog.shape(cluster.cloud, pool.machine_type)
    bundled = shape.nvme_disks if shape is not None else None
    if pool.disk.local_ssd_count:
        return "raise the pool's disk.local_ssd_count"
    if bundled and target(cluster.cloud).local_ssd_ephemeral:
        return (
            f"raise the pool's disk.size_gb, or put them on the {bundled} local SSDs "
            f"{pool.machine_type} comes with (disk.local_ssd_count: {bundled})"
        )
    return "raise the pool's disk.size_gb"
