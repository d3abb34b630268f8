"""The disk rate one replica's weights get on a new node: a copy, or a Cloud Storage FUSE file
cache, written through the disk that holds the node's ephemeral storage, shared by the replicas
the node starts at once."""

from __future__ import annotations

from gpuplat.spec.model import Cluster, NodePool, Workload
from gpuplat.targets import target
from gpuplat.workload.capacity import started_at_once

MIB = 1.048576
"""MB in a MiB: disk rates are quoted in MiB/s, weights sizes and bandwidths in GB and MB/s."""


def disk_share_mbps(cluster: Cluster, pools: list[NodePool], workload: Workload) -> float | None:
    """MB/s one replica's weights (a copy, or a Cloud Storage FUSE file cache) get from its
    node's disk on the slowest of its pools: the disk's write rate shared by the replicas a new
    node starts at once (all of the workload's that fit on it, up to its most replicas). None
    when a pool's disk rate is not known."""
    cloud = target(cluster.cloud)
    rates = []
    for pool in pools:
        mibps = cloud.disk_write_mibps(pool)
        if mibps is None:
            return None
        rates.append(mibps * MIB / started_at_once(cluster, pool, workload))
    return min(rates, default=None)
