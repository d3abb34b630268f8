"""The GPU networks of a GKE cluster's GPUDirect pools: one network (VPC and subnet) per GPU NIC,
created by gpuplat or named in the spec.

- RDMA (A3 Ultra, A4): one VPC with the RoCE network profile of the pools' zone
  (``<zone>-vpc-roce``, MTU 8896) and a subnet per NIC, as cluster-toolkit's
  ``modules/network/gpu-rdma-vpc`` (commit 1047080) builds it.
- TCPXO (A3 Mega): eight gVNIC VPCs with one subnet each, MTU 8244, as cluster-toolkit's
  ``modules/network/multivpc`` in its ``gke-a3-megagpu`` blueprint builds them (a VM has at
  most one interface in a VPC without an RDMA network profile).

Either way the Kubernetes Network of NIC ``i`` is named as Google's pods name it: ``rdma-<i>``
(container-engine-accelerators ``gpudirect-rdma``) or ``vpc<i+1>`` (``gpudirect-tcpxo``
``nccl-test-latest.yaml``, cluster-toolkit ``k8s_network_names.gvnic_prefix: vpc``).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from gpuplat.hcl.writer import raw
from gpuplat.spec.model import Cluster, NodePool

NICS = 8
"""One GPU NIC per GPU on a3-ultragpu-8g, a4-highgpu-8g and a3-megagpu-8g, each on its own
subnet."""
RDMA_MTU = 8896
"""The RDMA network profile's MTU (VPC docs, RDMA network profiles: the default and the best)."""
TCPXO_MTU = 8244
"""The gVNIC GPU networks' MTU in cluster-toolkit's gke-a3-megagpu blueprint."""


def gpudirect_pools(cluster: Cluster) -> list[NodePool]:
    return [p for p in cluster.node_pools if p.gpudirect is not None]


def pool_zone(cluster: Cluster, pool: NodePool) -> str | None:
    zones = pool.zones if pool.zones is not None else cluster.zones
    return zones[0] if len(zones) == 1 else None


def subnet_ranges(cidr: str) -> tuple[str, ...] | None:
    """``cidr`` split into one range per NIC; None when it is not an IPv4 range that splits."""
    try:
        net = ipaddress.IPv4Network(cidr, strict=True)
    except ValueError:
        return None
    if net.prefixlen > 29 - 3:
        return None
    return tuple(str(s) for s in net.subnets(prefixlen_diff=3))[:NICS]


@dataclass(frozen=True)
class GpuNetworks:
    """The GPU networks of a cluster: the VPC and subnet of each NIC, in NIC order."""

    kind: str
    """rdma or tcpxo."""
    vpcs: tuple[str, ...]
    subnets: tuple[str, ...]
    created: dict[str, object] | None = None
    """The gke-cluster module input that creates them (``rdma_network`` or ``gpu_networks``);
    None when the spec names existing ones."""

    @property
    def k8s_names(self) -> tuple[str, ...]:
        """The Network (and GKENetworkParamSet) of each NIC, named as Google's pods name them."""
        return k8s_names(self.kind)

    @property
    def module_key(self) -> str:
        return "rdma_network" if self.kind == "rdma" else "gpu_networks"

    def node_networks(self, ref: str) -> list[dict[str, object]]:
        """A pool's ``additional_node_networks``: the cluster module's outputs when it creates
        the networks (so the pool waits for them), the names otherwise."""
        if self.created is None:
            return [
                {"network": v, "subnetwork": s}
                for v, s in zip(self.vpcs, self.subnets, strict=True)
            ]
        if self.kind == "rdma":
            return [
                {
                    "network": raw(f"{ref}.rdma_network"),
                    "subnetwork": raw(f"{ref}.rdma_subnetworks[{i}]"),
                }
                for i in range(NICS)
            ]
        return [
            {
                "network": raw(f"{ref}.gpu_networks[{i}]"),
                "subnetwork": raw(f"{ref}.gpu_subnetworks[{i}]"),
            }
            for i in range(NICS)
        ]


def k8s_names(kind: str) -> tuple[str, ...]:
    if kind == "rdma":
        return tuple(f"rdma-{i}" for i in range(NICS))
    return tuple(f"vpc{i + 1}" for i in range(NICS))


def gpu_networks(cluster: Cluster) -> GpuNetworks | None:
    """The cluster's GPU networks, from its first GPUDirect pool (the checks hold every such
    pool of a cluster to one kind, one zone for RDMA, and one range or the same names)."""
    pools = gpudirect_pools(cluster)
    if not pools or cluster.gcp is None:
        return None
    pool = pools[0]
    direct = pool.gpudirect
    assert direct is not None
    if direct.networks is not None:
        if len(direct.networks) != NICS:
            return None
        return GpuNetworks(
            kind=direct.type,
            vpcs=tuple(n.network for n in direct.networks),
            subnets=tuple(n.subnetwork for n in direct.networks),
        )
    ranges = subnet_ranges(direct.cidr)
    if ranges is None:
        return None
    if direct.type == "rdma":
        zone = pool_zone(cluster, pool)
        if zone is None:
            return None
        name = f"{cluster.name}-rdma"
        subnets = tuple(f"{name}-sub-{i}" for i in range(NICS))
        return GpuNetworks(
            kind="rdma",
            vpcs=(name,) * NICS,
            subnets=subnets,
            created={
                "name": name,
                "profile": f"projects/{cluster.gcp.project}/global/networkProfiles/{zone}-vpc-roce",
                "mtu": RDMA_MTU,
                "subnets": [{"name": n, "cidr": c} for n, c in zip(subnets, ranges, strict=True)],
            },
        )
    vpcs = tuple(f"{cluster.name}-gpunet-{i}" for i in range(NICS))
    subnets = tuple(f"{v}-subnet" for v in vpcs)
    return GpuNetworks(
        kind="tcpxo",
        vpcs=vpcs,
        subnets=subnets,
        created={
            "mtu": TCPXO_MTU,
            "networks": [
                {"name": v, "subnet": s, "cidr": c}
                for v, s, c in zip(vpcs, subnets, ranges, strict=True)
            ],
        },
    )
