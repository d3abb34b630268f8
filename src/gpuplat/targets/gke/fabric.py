"""GPUDirect RDMA on GKE: the fabric of multi-host groups on A3 Ultra and A4 pools.

The shape follows Google's own: the RoCE VPC (a network profile ``<zone>-vpc-roce``, one subnet
per GPU NIC, MTU 8896) of cluster-toolkit's ``modules/network/gpu-rdma-vpc`` and its
``gke-a3-ultragpu`` blueprint (commit 1047080, 2026-06-25); the pool's additional node networks
and the cluster's multi-networking (google provider ``network_config.
additional_node_network_configs``, ``enable_multi_networking``); a GKENetworkParamSet (device mode
RDMA) and a Network per subnet named ``rdma-<i>``; the gIB installer DaemonSet and the pods'
interfaces, gIB mount and environment script of GoogleCloudPlatform/container-engine-accelerators
``gpudirect-rdma/nccl-rdma-installer.yaml`` and ``nccl-test-a4.yaml`` (commit 992db81,
2026-06-11).
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass

from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets.fabric import GroupFabric, HostMount

RDMA_MACHINES = {"a3-ultragpu-8g": "nvidia-h200-141gb", "a4-highgpu-8g": "nvidia-b200"}
"""Machine types with RDMA (MRDMA) NICs on a RoCE VPC, and their GKE accelerators (the gIB
installer runs on nodes of these accelerators)."""
TCPXO_MACHINES = ("a3-megagpu-8g",)
"""A3 Mega: GPUDirect-TCPXO (eight gVNIC networks, the RxDM daemon and a sidecar), not RDMA."""
NICS = 8
"""One RDMA NIC per GPU on both machine types, each on its own subnet."""
MTU = 8896
"""The RDMA network profile's MTU (VPC docs, RDMA network profiles: the default and the best)."""
GIB_IMAGE = "us-docker.pkg.dev/gce-ai-infra/gpudirect-gib/nccl-plugin-gib:v1.1.1"
PAUSE_IMAGE = (
    "gke.gcr.io/pause:3.8@sha256:880e63f94b145e46f1b1082bb71b85e21f16b99b180b9996407d61240ceb9830"
)
GIB_HOST = "/home/kubernetes/bin/gib"
GIB_MOUNT = "/usr/local/gib"
NCCL_ENV_SCRIPT = f". {GIB_MOUNT}/scripts/set_nccl_env.sh"
"""gIB's script sets NCCL's network plugin, tuner and RoCE settings for the machine it runs on
(Google's test pods source it before NCCL starts)."""
NVIDIA_LIB = "/usr/local/nvidia/lib64"
"""Where GKE mounts the driver's libraries in GPU containers; the installer copies the gIB
plugin there."""
TOPOLOGY = (
    "cloud.google.com/gce-topology-block",
    "cloud.google.com/gce-topology-subblock",
    "cloud.google.com/gce-topology-host",
    "kubernetes.io/hostname",
)
"""The node labels GKE puts on A3 Ultra and A4 nodes, widest first (cluster-toolkit's
gke-a3-ultragpu Kueue Topology)."""
PREFERRED_LEVEL = "cloud.google.com/gce-topology-subblock"
"""A group's nodes are separate hosts: the closest domain that holds several is a sub-block."""


@dataclass(frozen=True)
class RdmaNetwork:
    """The RoCE VPC of a cluster's RDMA pools: its subnets and their Kubernetes networks."""

    name: str
    project: str
    zone: str
    subnets: tuple[tuple[str, str], ...]
    """(name, IPv4 range) of each subnet, NIC order."""

    @property
    def profile(self) -> str:
        return f"projects/{self.project}/global/networkProfiles/{self.zone}-vpc-roce"

    @property
    def k8s_names(self) -> tuple[str, ...]:
        """The Network (and GKENetworkParamSet) of each subnet, named as Google's pods name
        them."""
        return tuple(f"rdma-{i}" for i in range(len(self.subnets)))

    def module_input(self) -> dict[str, object]:
        """The gke-cluster module's ``rdma_network``."""
        return {
            "name": self.name,
            "profile": self.profile,
            "mtu": MTU,
            "subnets": [{"name": n, "cidr": c} for n, c in self.subnets],
        }


def rdma_pools(cluster: Cluster) -> list[NodePool]:
    return [p for p in cluster.node_pools if p.gpudirect is not None and p.gpudirect.type == "rdma"]


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


def rdma_network(cluster: Cluster) -> RdmaNetwork | None:
    """The cluster's RDMA network, from its first RDMA pool (the checks hold every RDMA pool
    of a cluster to one zone and one range)."""
    pools = rdma_pools(cluster)
    if not pools or cluster.gcp is None:
        return None
    pool = pools[0]
    assert pool.gpudirect is not None
    zone = pool_zone(cluster, pool)
    ranges = subnet_ranges(pool.gpudirect.cidr)
    if zone is None or ranges is None:
        return None
    name = f"{cluster.name}-rdma"
    return RdmaNetwork(
        name=name,
        project=cluster.gcp.project,
        zone=zone,
        subnets=tuple((f"{name}-sub-{i}", r) for i, r in enumerate(ranges)),
    )


def interfaces(network: RdmaNetwork | None = None) -> str:
    """The pod's ``networking.gke.io/interfaces``: the default network on eth0 and each RDMA
    network on the interface Google's pods give it (eth2 on: eth1 is the node's second
    gVNIC)."""
    names = network.k8s_names if network is not None else tuple(f"rdma-{i}" for i in range(NICS))
    entries = [{"interfaceName": "eth0", "network": "default"}] + [
        {"interfaceName": f"eth{i + 2}", "network": n} for i, n in enumerate(names)
    ]
    return json.dumps(entries, separators=(",", ":"))


def group_pod(pools: list[NodePool]) -> GroupFabric:
    """The RDMA interfaces, resources, gIB mount and NCCL environment of a group's pod, when
    every pool of the group has GPUDirect RDMA."""
    if not pools or not all(p.gpudirect is not None and p.gpudirect.type == "rdma" for p in pools):
        return GroupFabric()
    return GroupFabric(
        resources={f"networking.gke.io.networks/rdma-{i}": "1" for i in range(NICS)},
        env={"LD_LIBRARY_PATH": NVIDIA_LIB},
        annotations={
            "networking.gke.io/default-interface": "eth0",
            "networking.gke.io/interfaces": interfaces(),
        },
        mounts=(HostMount("gib", GIB_HOST, GIB_MOUNT),),
        prelude=NCCL_ENV_SCRIPT,
    )


def topology(pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
    """GKE's topology labels, on pools whose machine types carry them (the RDMA ones)."""
    if pools and all(p.gpudirect is not None and p.gpudirect.type == "rdma" for p in pools):
        return TOPOLOGY, PREFERRED_LEVEL
    return None


def platform_input(cluster: Cluster) -> dict[str, object] | None:
    """The gpu-platform module's ``gpudirect``: the Kubernetes networks of the RDMA subnets
    and the gIB installer for the accelerators of the RDMA pools."""
    network = rdma_network(cluster)
    if network is None:
        return None
    accelerators = sorted({RDMA_MACHINES[p.machine_type] for p in rdma_pools(cluster)})
    return {
        "networks": [
            {"name": k8s, "vpc": network.name, "subnet": subnet}
            for k8s, (subnet, _) in zip(network.k8s_names, network.subnets, strict=True)
        ],
        "accelerators": accelerators,
        "installer_image": GIB_IMAGE,
        "pause_image": PAUSE_IMAGE,
    }


def note(pool: NodePool) -> tuple[str, str] | None:
    """A warning for a multi-host group on a pool without GPUDirect (NCCL over the pod
    network)."""
    if pool.gpudirect is not None:
        return None
    if pool.machine_type in RDMA_MACHINES:
        hint = "set gpudirect: {type: rdma} on the pool"
    else:
        hint = (
            f"use an RDMA machine type ({', '.join(RDMA_MACHINES)}) with gpudirect: {{type: rdma}}"
        )
    return (
        f'a multi-host group on pool "{pool.name}" exchanges its tensors over the pod network: '
        "the pool has no GPUDirect",
        hint,
    )
