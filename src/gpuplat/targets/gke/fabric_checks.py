"""What GPUDirect on a GKE pool needs: a machine type of its kind (RDMA: A3 Ultra, A4; TCPXO:
A3 Mega), one capacity type, one kind and one set of GPU networks per cluster, eight existing
networks when it names them, and a multi-host group to carry; RDMA one zone, TCPXO a GKE that
runs native sidecars and a Container-Optimized OS node image."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets.gke import tcpxo
from gpuplat.targets.gke.fabric import RDMA_MACHINES, TCPXO_MACHINES
from gpuplat.targets.gke.gpunets import NICS, gpudirect_pools, pool_zone, subnet_ranges
from gpuplat.targets.support import minor_of

_RDMA = ", ".join(RDMA_MACHINES)
_TCPXO = ", ".join(TCPXO_MACHINES)


def pool(
    spec: Spec, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """One pool's ``gpudirect``, located at its key."""
    direct = pool.gpudirect
    if direct is None:
        return
    at = (*base, "gpudirect")
    yield from _machine(pool, base, loc)
    if direct.type == "rdma" and pool_zone(cluster, pool) is None:
        zones = pool.zones if pool.zones is not None else cluster.zones
        said = ", ".join(zones) if zones else "the cloud's choice of zones"
        yield loc.error(
            (*base, "zones") if pool.zones is not None else at,
            f'pool "{pool.name}" spans {said}: an RDMA network lives in one zone (its network '
            "profile is <zone>-vpc-roce)",
            "give the pool exactly one zone (zones: [...])",
            at_key=pool.zones is None,
        )
    if direct.type == "tcpxo":
        yield from _tcpxo_floor(cluster, pool, base, loc)
    if isinstance(pool.capacity, list):
        yield loc.error(
            at,
            f'pool "{pool.name}" is a capacity ladder: its rungs are node pools GKE scales on '
            "its own, and a group split over two has no common fabric",
            "give a GPUDirect pool one capacity type",
            at_key=True,
        )
    if direct.networks is not None:
        yield from _existing(pool, at, loc)
    elif subnet_ranges(direct.cidr) is None:
        yield loc.error(
            (*at, "cidr"),
            f'"{direct.cidr}" cannot be split into 8 GPU subnets',
            "give an IPv4 range of /26 or wider, e.g. 192.168.128.0/18",
        )
    if not _carries_a_group(spec, cluster, pool):
        yield loc.error(
            at,
            f'no multi-host workload runs on pool "{pool.name}" of cluster "{cluster.name}": '
            "its GPU networks would carry nothing (a one-node server talks over NVLink)",
            "remove gpudirect, or serve a workload with multi_host from this pool",
            at_key=True,
        )


def _machine(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    direct = pool.gpudirect
    assert direct is not None
    machines = {"rdma": RDMA_MACHINES, "tcpxo": TCPXO_MACHINES}
    if pool.machine_type in machines[direct.type]:
        return
    other = "tcpxo" if direct.type == "rdma" else "rdma"
    # The reason and hint: on the other kind's machine, or on a machine with neither.
    refusals = {
        ("rdma", True): (
            "A3 Mega's GPU NICs carry GPUDirect-TCPXO, not RDMA",
            "use gpudirect: {type: tcpxo} on A3 Mega",
        ),
        ("rdma", False): ("it has no RDMA NICs", f"GPUDirect RDMA needs {_RDMA}"),
        ("tcpxo", True): (
            "its GPU NICs carry GPUDirect RDMA, not TCPXO",
            "use gpudirect: {type: rdma} on A3 Ultra and A4",
        ),
        ("tcpxo", False): (
            "GPUDirect-TCPXO runs on A3 Mega alone",
            f"GPUDirect-TCPXO needs {_TCPXO}",
        ),
    }
    why, hint = refusals[(direct.type, pool.machine_type in machines[other])]
    yield loc.error(
        (*base, "gpudirect", "type"),
        f'pool "{pool.name}" is {pool.machine_type}: {why}',
        hint,
        related=[((*base, "machine_type"), "the pool's machine type")],
    )


def _tcpxo_floor(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The GKE minor and the node image TCPXO's pieces need."""
    minor = minor_of(cluster.kubernetes.version)
    if minor is not None and tuple(int(x) for x in minor.split(".")) < tcpxo.MIN_MINOR:
        want = ".".join(str(x) for x in tcpxo.MIN_MINOR)
        yield loc.error(
            (*base[:-2], "kubernetes", "version"),
            f'pool "{pool.name}" runs GPUDirect-TCPXO, whose tcpxo-daemon is a native sidecar: '
            f"GKE {minor} does not run native sidecars by default (GKE {want} and later do)",
            f'set kubernetes.version: "{want}" or later, or leave it to the release channel',
        )
    if pool.image is not None and not pool.image.startswith("COS"):
        yield loc.error(
            (*base, "image"),
            f'pool "{pool.name}" runs {pool.image}: the TCPXO installer and the NRI device '
            "injector are built for Container-Optimized OS nodes (/home/kubernetes/bin, "
            "NRI in containerd)",
            "leave image out (COS_CONTAINERD) on a TCPXO pool",
        )


def _existing(pool: NodePool, at: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Named networks: one per GPU NIC; TCPXO's in eight different VPCs (a VM has at most one
    interface in a VPC without an RDMA network profile)."""
    direct = pool.gpudirect
    assert direct is not None and direct.networks is not None
    if len(direct.networks) != NICS:
        yield loc.error(
            (*at, "networks"),
            f'pool "{pool.name}" names {len(direct.networks)} GPU networks: '
            f"{pool.machine_type} has {NICS} GPU NICs, each on its own subnet",
            f"name {NICS} networks, in NIC order, or leave networks out to have gpuplat "
            "create them",
        )
        return
    if direct.type == "tcpxo":
        seen: dict[str, int] = {}
        for i, net in enumerate(direct.networks):
            if net.network in seen:
                yield loc.error(
                    (*at, "networks", i, "network"),
                    f'GPU networks {seen[net.network]} and {i} of pool "{pool.name}" are both '
                    f'in VPC "{net.network}": each gVNIC of a VM needs its own VPC',
                    "give each TCPXO NIC a network of its own",
                )
            seen.setdefault(net.network, i)
    subnets = [n.subnetwork for n in direct.networks]
    for i, name in enumerate(subnets):
        if name in subnets[:i]:
            yield loc.error(
                (*at, "networks", i, "subnetwork"),
                f'subnet "{name}" carries two GPU NICs of pool "{pool.name}"',
                "give each GPU NIC a subnet of its own",
            )


def cluster(cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Every GPUDirect pool of a cluster on its one set of GPU networks: one kind, one range
    or the same named networks, and for RDMA one zone."""
    pools = gpudirect_pools(cluster)
    if len(pools) < 2:
        return
    first = pools[0]
    assert first.gpudirect is not None
    for pool in pools[1:]:
        assert pool.gpudirect is not None
        index = cluster.node_pools.index(pool)
        at = (*base, "node_pools", index, "gpudirect")
        if pool.gpudirect.type != first.gpudirect.type:
            yield loc.error(
                (*at, "type"),
                f'pool "{pool.name}" asks for GPUDirect {pool.gpudirect.type}, pool '
                f'"{first.name}" for {first.gpudirect.type}: a cluster has one set of GPU '
                "networks",
                "serve the other kind from a second cluster",
            )
            continue
        zone, want = pool_zone(cluster, pool), pool_zone(cluster, first)
        if (
            first.gpudirect.type == "rdma"
            and zone is not None
            and want is not None
            and zone != want
        ):
            yield loc.error(
                at,
                f'RDMA pools "{first.name}" ({want}) and "{pool.name}" ({zone}) of cluster '
                f'"{cluster.name}" are in different zones; the cluster has one RDMA network',
                f"put every RDMA pool of the cluster in {want}",
                at_key=True,
            )
        if pool.gpudirect.networks != first.gpudirect.networks:
            yield loc.error(
                (*at, "networks") if pool.gpudirect.networks is not None else at,
                f'pools "{first.name}" and "{pool.name}" name different GPU networks; the '
                "cluster has one set",
                "give every GPUDirect pool of the cluster the same networks",
                at_key=pool.gpudirect.networks is None,
            )
        elif pool.gpudirect.cidr != first.gpudirect.cidr and pool.gpudirect.networks is None:
            yield loc.error(
                (*at, "cidr"),
                f'pool "{pool.name}" gives the GPU range {pool.gpudirect.cidr}, pool '
                f'"{first.name}" {first.gpudirect.cidr}; the cluster has one set of GPU networks',
                f"use {first.gpudirect.cidr}, or leave cidr out on both",
            )


def _carries_a_group(spec: Spec, cluster: Cluster, pool: NodePool) -> bool:
    for workload in spec.workloads:
        if workload.multi_host is None or cluster.name not in workload.clusters:
            continue
        if any(p.name == pool.name for p in workload_pools(spec, workload).get(cluster.name, [])):
            return True
    return False
