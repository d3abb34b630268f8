"""GPUDirect on GKE: the fabric of multi-host groups on A3 Ultra and A4 (RDMA) and A3 Mega
(TCPXO) pools; their networks are in ``gpunets``.

RDMA follows Google's own shape: a GKENetworkParamSet (device mode RDMA) and a Network per
subnet named ``rdma-<i>``; the gIB installer DaemonSet and the pods' interfaces, gIB mount and
environment script of GoogleCloudPlatform/container-engine-accelerators
``gpudirect-rdma/nccl-rdma-installer.yaml`` and ``nccl-test-a4.yaml`` (commit 992db81,
2026-06-11). TCPXO (same commit, ``gpudirect-tcpxo/``) is in ``tcpxo``.
"""

from __future__ import annotations

import json

from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets.fabric import GroupFabric, HostMount
from gpuplat.targets.gke import gpunets, tcpxo

RDMA_MACHINES = {"a3-ultragpu-8g": "nvidia-h200-141gb", "a4-highgpu-8g": "nvidia-b200"}
"""Machine types with RDMA (MRDMA) NICs on a RoCE VPC, and their GKE accelerators (the gIB
installer runs on nodes of these accelerators)."""
TCPXO_MACHINES = ("a3-megagpu-8g",)
"""A3 Mega: GPUDirect-TCPXO (eight gVNIC networks, the RxDM daemon and a sidecar), not RDMA."""
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


def interfaces(kind: str) -> str:
    """The pod's ``networking.gke.io/interfaces``: the default network on eth0 and each GPU
    network on the interface Google's pods give it (RDMA: eth2 on, eth1 being the node's
    second gVNIC; TCPXO: eth1 to eth8, the names NCCL_FASTRAK_IFNAME lists)."""
    first = 2 if kind == "rdma" else 1
    entries = [{"interfaceName": "eth0", "network": "default"}] + [
        {"interfaceName": f"eth{i + first}", "network": n}
        for i, n in enumerate(gpunets.k8s_names(kind))
    ]
    return json.dumps(entries, separators=(",", ":"))


def _kind(pools: list[NodePool]) -> str | None:
    """The GPUDirect kind every pool of a group shares; None when they do not share one."""
    kinds = {p.gpudirect.type if p.gpudirect is not None else None for p in pools}
    return kinds.pop() if len(kinds) == 1 else None


def group_pod(pools: list[NodePool]) -> GroupFabric:
    """What a group's pod adds when every pool of the group has the same GPUDirect: RDMA, the
    interfaces, resources, gIB mount and NCCL environment; TCPXO, the interfaces, the
    tcpxo-daemon sidecar and its injected devices, the aperture devices and NCCL's
    environment."""
    kind = _kind(pools) if pools else None
    annotations = {
        "networking.gke.io/default-interface": "eth0",
        "networking.gke.io/interfaces": interfaces(kind or "rdma"),
    }
    if kind == "rdma":
        return GroupFabric(
            resources={f"networking.gke.io.networks/{n}": "1" for n in gpunets.k8s_names(kind)},
            env={"LD_LIBRARY_PATH": NVIDIA_LIB},
            annotations=annotations,
            mounts=(HostMount("gib", GIB_HOST, GIB_MOUNT),),
            prelude=NCCL_ENV_SCRIPT,
        )
    if kind == "tcpxo":
        # Google's TCPXO pods ask for no network resource: the interfaces annotation alone
        # attaches them.
        return GroupFabric(
            env=tcpxo.server_env(),
            annotations={
                f"devices.gke.io/container.{tcpxo.DAEMON}": tcpxo.devices_annotation(),
                **annotations,
            },
            mounts=tcpxo.server_mounts(),
            prelude=tcpxo.NCCL_ENV_SCRIPT,
            sidecar=tcpxo.daemon(),
        )
    return GroupFabric()


def topology(pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
    """GKE's topology labels, on pools whose machine types carry them (the GPUDirect ones: A3
    Ultra and A4 by cluster-toolkit's gke-a3-ultragpu Kueue Topology, A3 Mega by Google's
    "Run NCCL on custom GKE clusters that use A3 Mega or A3 High", the same four levels)."""
    if pools and _kind(pools) is not None:
        return TOPOLOGY, PREFERRED_LEVEL
    return None


def platform_input(cluster: Cluster) -> dict[str, object] | None:
    """The gpu-platform module's ``gpudirect``: the Kubernetes networks of the GPU subnets and
    the installers for the accelerators of the GPUDirect pools."""
    nets = gpunets.gpu_networks(cluster)
    if nets is None:
        return None
    networks = [
        {"name": k8s, "vpc": vpc, "subnet": subnet}
        for k8s, vpc, subnet in zip(nets.k8s_names, nets.vpcs, nets.subnets, strict=True)
    ]
    if nets.kind == "tcpxo":
        return {
            "type": "tcpxo",
            "networks": networks,
            "accelerators": [tcpxo.ACCELERATOR],
            **tcpxo.platform_images(),
            "pause_image": PAUSE_IMAGE,
        }
    pools = [p for p in gpunets.gpudirect_pools(cluster) if p.machine_type in RDMA_MACHINES]
    return {
        "networks": networks,
        "accelerators": sorted({RDMA_MACHINES[p.machine_type] for p in pools}),
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
    elif pool.machine_type in TCPXO_MACHINES:
        hint = "set gpudirect: {type: tcpxo} on the pool"
    else:
        hint = (
            f"use an RDMA machine type ({', '.join(RDMA_MACHINES)}) with gpudirect: {{type: rdma}}"
        )
    return (
        f'a multi-host group on pool "{pool.name}" exchanges its tensors over the pod network: '
        "the pool has no GPUDirect",
        hint,
    )
