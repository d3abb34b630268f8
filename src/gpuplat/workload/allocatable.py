"""What one replica may request: its share of a node, so that N GPU slices pack N replicas.

A node offers pods its allocatable CPU and memory: the machine's vCPUs and memory (from the
catalog), less what the VM itself keeps, less the cloud's kubelet and system reservation (the
cloud's own formula, in targets/<cloud>_node.py), less the pods that run on every GPU node (the
cloud's own and the daemonsets gpuplat installs). A replica that takes ``g`` of the node's ``U``
GPU units (GPUs, MIG instances or shared slices) gets ``g / U`` of the rest, so replicas of one
workload, or of several sharing a pool, fill the node's GPUs and its CPU and memory together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType

from gpuplat.catalog import Shape
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import resolve_pool
from gpuplat.targets import device_plugin, eks_node, gke_node
from gpuplat.targets.node_reserve import Reserve
from gpuplat.workload.weights import FUSE_SIDECAR_CPU_MILLIS, FUSE_SIDECAR_MEMORY_MIB

VM_MEMORY_OVERHEAD = 0.075
"""Share of the nominal memory a VM's kernel and firmware keep (the kubelet's capacity is the
MemTotal it sees): Karpenter's default VM_MEMORY_OVERHEAD_PERCENT, 7.5%, for the same reason."""
NFD_WORKER = Reserve(cpu_millis=5, memory_mib=64)
"""node-feature-discovery's worker, on every GPU node with the NVIDIA device plugin chart (its
GPU feature discovery needs it) or the GPU Operator: its chart's default requests. The device
plugin, GPU feature discovery, DCGM exporter and the operator's other daemonsets request nothing
by default (resources: {} in their charts)."""
FUSE_SIDECAR = Reserve(FUSE_SIDECAR_CPU_MILLIS, FUSE_SIDECAR_MEMORY_MIB)
"""Requests of the Cloud Storage FUSE sidecar GKE injects into each pod with gcsfuse weights
(gpuplat sets them to GKE's defaults with the pod's annotations, workload/weights.py)."""
_TARGETS: dict[str, ModuleType] = {"gke": gke_node, "eks": eks_node}
ZERO = Reserve(0, 0)


@dataclass(frozen=True)
class NodeShare:
    """A node of one pool, and what its GPU units may request."""

    pool: str
    shape: Shape
    units: int
    """GPU units per node (GPUs, MIG instances or shared slices)."""
    kubelet: Reserve
    system: Reserve
    daemonsets: Reserve

    @property
    def vm_memory_mib(self) -> int:
        return math.floor(float(self.shape.memory_gib) * 1024 * (1 - VM_MEMORY_OVERHEAD))

    @property
    def cpu_millis(self) -> int:
        """CPU left for the workloads' pods on one node."""
        taken = self.kubelet.cpu_millis + self.system.cpu_millis + self.daemonsets.cpu_millis
        return self.shape.vcpus * 1000 - taken

    @property
    def memory_mib(self) -> int:
        """Memory left for the workloads' pods on one node."""
        taken = self.kubelet.memory_mib + self.system.memory_mib + self.daemonsets.memory_mib
        return self.vm_memory_mib - taken

    def replica(self, gpus: int) -> Reserve:
        """What a pod taking ``gpus`` units may request in all (its containers together)."""
        return Reserve(
            cpu_millis=self.cpu_millis * gpus // self.units,
            memory_mib=self.memory_mib * gpus // self.units,
        )

    def explain(self, gpus: int) -> str:
        """The arithmetic, for people: a platform engineer can redo it from the catalog."""
        share = self.replica(gpus)
        return (
            f"{self.shape.name}: {self.shape.vcpus} vCPU - {self.kubelet.cpu_millis}m kubelet "
            f"- {self.system.cpu_millis}m system pods - {self.daemonsets.cpu_millis}m GPU "
            f"daemonsets = {self.cpu_millis}m; {self.shape.memory_gib:g} GiB less "
            f"{VM_MEMORY_OVERHEAD:.1%} for the VM = {self.vm_memory_mib}Mi - "
            f"{self.kubelet.memory_mib}Mi kubelet - {self.system.memory_mib}Mi system pods - "
            f"{self.daemonsets.memory_mib}Mi GPU daemonsets = {self.memory_mib}Mi; x {gpus}/"
            f"{self.units} GPU units = {share.cpu_millis}m, {share.memory_mib}Mi per replica"
        )


def gpu_node_daemonsets(spec: Spec, cluster: Cluster) -> Reserve:
    """Requests of the daemonsets gpuplat installs on every GPU node of a cluster."""
    plugin = device_plugin(spec, cluster)
    return NFD_WORKER if plugin in ("nvidia-device-plugin", "gpu-operator", "dra") else ZERO


def node_share(spec: Spec, cluster: Cluster, pool: NodePool) -> NodeShare | None:
    """A pool's node and its GPU units; None when the catalog or the cloud's rules do not say."""
    gpu = resolve_pool(cluster, pool)
    target = _TARGETS.get(cluster.cloud)
    if gpu.shape is None or not gpu.units_per_node or target is None:
        return None
    return NodeShare(
        pool=pool.name,
        shape=gpu.shape,
        units=gpu.units_per_node,
        kubelet=target.kubelet_reserve(gpu.shape),
        system=target.SYSTEM_PODS,
        daemonsets=gpu_node_daemonsets(spec, cluster),
    )


def ephemeral_allocatable_gb(cluster: Cluster, pool: NodePool) -> float | None:
    """Boot disk a pool's pods may request as ephemeral storage (None: the cloud's rule is unknown)."""
    target = _TARGETS.get(cluster.cloud)
    if target is None:
        return None
    return float(pool.disk.size_gb - target.ephemeral_reserve_gb(pool.disk.size_gb))


def effective(server: Reserve, sidecars: Reserve, init: Reserve) -> Reserve:
    """What the scheduler counts for a pod: the larger of an init container and the rest."""
    return Reserve(
        cpu_millis=max(init.cpu_millis, server.cpu_millis + sidecars.cpu_millis),
        memory_mib=max(init.memory_mib, server.memory_mib + sidecars.memory_mib),
    )
