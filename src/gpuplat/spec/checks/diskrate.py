"""Weights that reach the server through the node's disk, at the disk's rate shared by the
replicas a new node starts at once.

A copied replica writes its weights to an emptyDir and a Cloud Storage FUSE replica fills its
file cache before the server reads from it: both write through the disk that holds the node's
ephemeral storage. Sixteen MIG replicas on one a3-highgpu-8g start together and share that
disk's write rate, so each loads at a sixteenth of it, however fast the network is. Where the
cloud's target knows the rate (targets/<cloud>/node.py), the load that rate allows is held to
``load_time_budget``; the serving plan's startup probe and progress deadline use the same rate
(workload/serving.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Workload
from gpuplat.spec.model.base import format_duration
from gpuplat.targets import target
from gpuplat.workload.capacity import started_at_once
from gpuplat.workload.weights import weights_for

MB_PER_MIB = 1.048576


def check(
    workload: Workload, cluster: Cluster, pools: list[NodePool], base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Warn when the disk's shared rate makes startup exceed the workload's load_time_budget."""
    weights = weights_for(workload, cluster)
    mode = weights.mode
    if mode not in ("copy", "gcsfuse") or weights.cache_memory is not None:
        return
    model = workload.model
    slowest: tuple[float, NodePool, float, int] | None = None  # (MB/s each, pool, MiB/s, n)
    for pool in pools:
        mibps = target(cluster.cloud).disk_write_mibps(pool)
        if mibps is None:
            return  # one pool of unknown rate: the slowest is not known
        n = started_at_once(cluster, pool, workload)
        each = mibps * MB_PER_MIB / n
        if slowest is None or each < slowest[0]:
            slowest = (each, pool, mibps, n)
    if slowest is None or slowest[0] >= model.load_bandwidth_mbps:
        return
    each, pool, mibps, n = slowest
    load = round(model.size_gb * 1000.0 / each)
    needed = workload.image_pull_time + load
    if needed <= workload.load_time_budget:
        return
    what = "fill their Cloud Storage FUSE file caches" if mode == "gcsfuse" else "copy weights"
    yield loc.warning(
        (*base, "load_time_budget"),
        f'{n} replica(s) a new node of pool "{pool.name}" in cluster "{cluster.name}" starts '
        f"at once {what} through its {_disk(pool)}: "
        f"startup needs about {format_duration(needed)}, more than load_time_budget "
        f"{format_duration(workload.load_time_budget)}",
        _hint(cluster, pool),
        details=(
            f"the disk writes about {mibps:g} MiB/s ({mibps * MB_PER_MIB:.0f} MB/s); "
            f"/ {n} replicas = {each:.1f} MB/s each, below load_bandwidth_mbps "
            f"{model.load_bandwidth_mbps:g}",
            f"image pull {format_duration(workload.image_pull_time)} + {model.size_gb:g} GB at "
            f"{each:.1f} MB/s ({format_duration(load)}) = {format_duration(needed)}",
        ),
    )


def _disk(pool: NodePool) -> str:
    disk = pool.disk
    if disk.local_ssd_count:
        return f"{disk.local_ssd_count} local SSDs"
    return f"{disk.size_gb} GB boot disk" + (f" ({disk.type})" if disk.type else "")


def _hint(cluster: Cluster, pool: NodePool) -> str:
    if pool.disk.local_ssd_count:
        return "start fewer replicas on a node, or raise load_time_budget"
    shape = catalog.shape(cluster.cloud, pool.machine_type)
    bundled = shape.nvme_disks if shape is not None else None
    if bundled and target(cluster.cloud).local_ssd_ephemeral:
        return (
            f"put them on the {bundled} local SSDs {pool.machine_type} comes with "
            f"(disk.local_ssd_count: {bundled}), or raise load_time_budget"
        )
    return "give the pool a larger or faster disk, or raise load_time_budget"
