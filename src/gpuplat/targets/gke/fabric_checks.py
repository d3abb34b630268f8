"""What GPUDirect on a GKE pool needs: an RDMA machine type, one zone, one capacity type, one
RDMA network per cluster and a multi-host group to carry; TCPXO is refused until it is built."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets.gke.fabric import (
    RDMA_MACHINES,
    TCPXO_MACHINES,
    pool_zone,
    rdma_pools,
    subnet_ranges,
)

_RDMA = ", ".join(RDMA_MACHINES)


def pool(
    spec: Spec, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """One pool's ``gpudirect``, located at its key."""
    direct = pool.gpudirect
    if direct is None:
        return
    at = (*base, "gpudirect")
    if direct.type == "tcpxo":
        yield loc.error(
            (*at, "type"),
            f'pool "{pool.name}" asks for GPUDirect-TCPXO, which gpuplat does not render yet '
            "(eight gVNIC networks, the RxDM daemon and the NCCL sidecar of A3 Mega)",
            f"serve the group from A3 Ultra or A4 with gpudirect: {{type: rdma}} ({_RDMA}), "
            "or remove gpudirect (NCCL then runs over the pod network)",
        )
        return
    if pool.machine_type not in RDMA_MACHINES:
        why = (
            "A3 Mega's GPU NICs carry GPUDirect-TCPXO, not RDMA"
            if pool.machine_type in TCPXO_MACHINES
            else "it has no RDMA NICs"
        )
        yield loc.error(
            (*at, "type"),
            f'pool "{pool.name}" is {pool.machine_type}: {why}',
            f"GPUDirect RDMA needs {_RDMA}",
            related=[((*base, "machine_type"), "the pool's machine type")],
        )
    if pool_zone(cluster, pool) is None:
        zones = pool.zones if pool.zones is not None else cluster.zones
        said = ", ".join(zones) if zones else "the cloud's choice of zones"
        yield loc.error(
            (*base, "zones") if pool.zones is not None else at,
            f'pool "{pool.name}" spans {said}: an RDMA network lives in one zone (its network '
            "profile is <zone>-vpc-roce)",
            "give the pool exactly one zone (zones: [...])",
            at_key=pool.zones is None,
        )
    if isinstance(pool.capacity, list):
        yield loc.error(
            at,
            f'pool "{pool.name}" is a capacity ladder: its rungs are node pools GKE scales on '
            "its own, and a group split over two has no common fabric",
            "give an RDMA pool one capacity type",
            at_key=True,
        )
    if subnet_ranges(direct.cidr) is None:
        yield loc.error(
            (*at, "cidr"),
            f'"{direct.cidr}" cannot be split into 8 RDMA subnets',
            "give an IPv4 range of /26 or wider, e.g. 192.168.128.0/18",
        )
    if not _carries_a_group(spec, cluster, pool):
        yield loc.error(
            at,
            f'no multi-host workload runs on pool "{pool.name}" of cluster "{cluster.name}": '
            "its RDMA network would carry nothing (a one-node server talks over NVLink)",
            "remove gpudirect, or serve a workload with multi_host from this pool",
            at_key=True,
        )


def cluster(cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Every RDMA pool of a cluster on its one RDMA network: one zone, one range."""
    pools = rdma_pools(cluster)
    if len(pools) < 2:
        return
    first = pools[0]
    assert first.gpudirect is not None
    for pool in pools[1:]:
        assert pool.gpudirect is not None
        index = cluster.node_pools.index(pool)
        at = (*base, "node_pools", index, "gpudirect")
        zone, want = pool_zone(cluster, pool), pool_zone(cluster, first)
        if zone is not None and want is not None and zone != want:
            yield loc.error(
                at,
                f'RDMA pools "{first.name}" ({want}) and "{pool.name}" ({zone}) of cluster '
                f'"{cluster.name}" are in different zones; the cluster has one RDMA network',
                f"put every RDMA pool of the cluster in {want}",
                at_key=True,
            )
        if pool.gpudirect.cidr != first.gpudirect.cidr:
            yield loc.error(
                (*at, "cidr"),
                f'pool "{pool.name}" gives the RDMA range {pool.gpudirect.cidr}, pool '
                f'"{first.name}" {first.gpudirect.cidr}; the cluster has one RDMA network',
                f"use {first.gpudirect.cidr}, or leave cidr out on both",
            )


def _carries_a_group(spec: Spec, cluster: Cluster, pool: NodePool) -> bool:
    for workload in spec.workloads:
        if workload.multi_host is None or cluster.name not in workload.clusters:
            continue
        if any(p.name == pool.name for p in workload_pools(spec, workload).get(cluster.name, [])):
            return True
    return False
