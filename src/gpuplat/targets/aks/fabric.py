"""InfiniBand as the fabric of a multi-host group on AKS (ND-series pools with ``infiniband``).

The node side is the NVIDIA Network Operator (platform stage, gpu-platform) and a
NicClusterPolicy (serving stage, the nic-cluster-policy module, once the operator's CRD is in the
cluster): the DOCA driver container loads the InfiniBand and RDMA kernel modules on the pool's
nodes, and the RDMA shared device plugin advertises the NICs as ``rdma/ib``. The pod side is
here: one ``rdma/ib`` per pod (the shared plugin hands every pod that asks all of the node's
HCAs) and IPC_LOCK, without which ibverbs cannot pin the memory it registers with the NIC.
The layout follows Azure's own guide (github.com/Azure/aks-rdma-infiniband,
configs/nicclusterpolicy), read 2026-12-03.

The topology Kueue places a group by: AKS labels no network topology on its nodes (GKE and
EKS do), but one fact holds by construction. An AKS node pool is one virtual machine scale set,
and with the subscription's ``AKSInfinibandSupport`` feature "the machines in the nodepool land
on the same physical InfiniBand network" (Azure/aks-rdma-infiniband, getting-started
prerequisites; AKS's GPU docs say the same); InfiniBand does not reach across scale sets. So an
InfiniBand pool's nodes carry gpuplat's ``gpuplat.dev/infiniband-network`` label, valued with the
node pool's name (a ladder's rung: the rung's own node pool), and a Topology has two levels:
that network, then the host. Nothing finer (rack, switch) is published by Azure, so none is
claimed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gpuplat.labels import INFINIBAND_LABEL, POOL_LABEL
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.spec.resolve import PoolGpu
from gpuplat.targets.fabric import GroupFabric

RESOURCE_NAME = "ib"
RESOURCE = f"rdma/{RESOURCE_NAME}"
"""What the RDMA shared device plugin advertises (``rdma/`` + its configList resourceName)."""
HCA_MAX = 63
"""Pods that may share one node's HCAs (rdmaHcaMax), as in NVIDIA's and Azure's examples."""
CAPABILITIES = ("IPC_LOCK",)
"""RDMA registers (pins) the buffers NCCL exchanges; without IPC_LOCK the container's memlock
limit stops it (rdma-core's ibv_reg_mr fails with ENOMEM)."""
MELLANOX_VENDOR = "15b3"
HOSTNAME = "kubernetes.io/hostname"
DRAIN_SECONDS = 300
"""The drain timeout of NVIDIA's example policy; longer when a server's grace is longer."""

IMAGES = {
    # network-operator v26.4.0 (commit 12e6d54ae20300151ef386da832809d83a8ab63d), hack/release.yaml:
    # the component versions that release was tested with.
    "ofed_driver": ("nvcr.io/nvidia/mellanox", "doca-driver", "doca3.4.0-26.04-0.8.6.0-0"),
    "rdma_shared_device_plugin": (
        "nvcr.io/nvidia/mellanox",
        "k8s-rdma-shared-dev-plugin",
        "network-operator-v26.4.0",
    ),
}


def group_pod(pools: list[NodePool]) -> GroupFabric:
    """``rdma/ib`` and IPC_LOCK when every pool of the group has InfiniBand; NCCL finds the
    HCAs itself."""
    if not pools or not all(p.infiniband for p in pools):
        return GroupFabric()
    return GroupFabric(resources={RESOURCE: "1"}, capabilities=CAPABILITIES)


def node_labels(pool: NodePool, node_pool: str) -> dict[str, str]:
    """The InfiniBand network label of an InfiniBand pool's nodes: ``node_pool``, the name of
    the AKS node pool (scale set) they are in; none on other pools."""
    return {INFINIBAND_LABEL: node_pool} if pool.infiniband else {}


def topology(pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
    """The InfiniBand network, then the host, when every pool has InfiniBand; a group would
    rather fit in one network (within one node pool's flavor it always does). None otherwise:
    AKS labels no topology of its own."""
    if pools and all(p.infiniband for p in pools):
        return (INFINIBAND_LABEL, HOSTNAME), INFINIBAND_LABEL
    return None


def note(pool: NodePool) -> tuple[str, str] | None:
    """A warning for a multi-host group on a pool without InfiniBand (NCCL then uses TCP)."""
    if pool.infiniband:
        return None
    return (
        f'a multi-host group on pool "{pool.name}" exchanges its tensors over TCP: the pool '
        "has no InfiniBand",
        "set infiniband: true on the pool (ND96isr H100 v5, ND96amsr A100 v4 carry it)",
    )


def check_pool(pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """``infiniband`` on a size that has it, with an image the DOCA driver container runs on."""
    if not pool.infiniband:
        return
    if gpu.shape is not None and not gpu.shape.infiniband:
        yield loc.error(
            (*base, "infiniband"),
            f"{pool.machine_type} has no InfiniBand",
            "use an ND-series size with InfiniBand (Standard_ND96isr_H100_v5, "
            "Standard_ND96amsr_A100_v4), or remove infiniband",
        )
    if (pool.image or "Ubuntu") != "Ubuntu":
        yield loc.error(
            (*base, "image"),
            "the Network Operator's DOCA driver container is built for Ubuntu nodes, not "
            f"{pool.image}",
            "use image: Ubuntu on InfiniBand pools",
            related=[((*base, "infiniband"), "InfiniBand is asked for here")],
        )


def check_peermem(
    pool: NodePool, gpu: PoolGpu, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """GPUDirect RDMA through nvidia-peermem is rendered where the GPU Operator installs the
    driver (gpu-platform ``gpudirect_rdma``: the operator's driver.rdma); AKS's own driver is
    installed without it."""
    if not pool.infiniband or plugin in ("gpu-operator", "dra"):
        return
    if gpu.shape is not None and not gpu.shape.infiniband:
        return  # a size without InfiniBand is refused at the same key (check_pool)
    yield loc.warning(
        (*base, "infiniband"),
        f'pool "{pool.name}" gets its GPU driver from AKS, which loads no nvidia-peermem: NCCL '
        "has GPUDirect RDMA over InfiniBand only through DMA-BUF (the open kernel modules), "
        "else it stages each transfer through host memory",
        "use the GPU Operator (addons.device_plugin: gpu-operator, driver.install: none on "
        "the pool): gpuplat then has its driver container load nvidia-peermem (driver.rdma)",
    )


def policy_args(
    cluster: Cluster, taints: Sequence[tuple[str, str]], grace_seconds: int
) -> dict[str, object] | None:
    """Inputs of the cluster's nic-cluster-policy module call; None without InfiniBand pools.

    ``taints``: (key, effect) of the InfiniBand pools' nodes; ``grace_seconds``: the longest
    termination grace of the cluster's servers, which a driver upgrade's drain waits for.
    """
    pools = [p.name for p in cluster.node_pools if p.infiniband]
    if not pools:
        return None
    seen = dict.fromkeys([("nvidia.com/gpu", "NoSchedule"), *taints])
    return {
        "pool_label": POOL_LABEL,
        "pools": pools,
        "tolerations": [{"key": k, "operator": "Exists", "effect": e} for k, e in seen],
        "resource_name": RESOURCE_NAME,
        "hca_max": HCA_MAX,
        "vendors": [MELLANOX_VENDOR],
        "images": {
            key: {"repository": repo, "image": image, "version": version}
            for key, (repo, image, version) in IMAGES.items()
        },
        "drain_timeout_seconds": max(DRAIN_SECONDS, grace_seconds),
    }
