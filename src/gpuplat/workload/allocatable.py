"""What one replica may request: its share of a node, so that N GPU slices pack N replicas.

A node offers pods its allocatable CPU and memory: the machine's vCPUs and memory (from the
catalog), less what the VM itself keeps, less the cloud's kubelet and system reservation (the
cloud's own formula, in targets/<cloud>/node.py). Of that, the DaemonSets that run on every GPU
node take their requests (the cloud's own and those of gpuplat's add-ons, each from the catalog's
``daemonsets.yaml``, as far as the spec turns them on: workload/daemonsets.py), and a stated
margin stays unclaimed, so replicas never take a node's last millicore. A replica that takes
``g`` of the node's ``U`` GPU units (GPUs, MIG instances or shared slices) gets ``g / U`` of the
rest, so replicas of one workload, or of several sharing a pool, fill the node's GPUs and its CPU
and memory together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpuplat import catalog
from gpuplat.catalog import NodeMargin, Shape
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import resolve_pool
from gpuplat.targets import target
from gpuplat.targets.node_reserve import Reserve
from gpuplat.workload.daemonsets import NodePod, node_pods, total
from gpuplat.workload.weights import FUSE_SIDECAR_CPU_MILLIS, FUSE_SIDECAR_MEMORY_MIB

VM_MEMORY_OVERHEAD = 0.075
"""Share of the nominal memory a VM's kernel and firmware keep (the kubelet's capacity is the
MemTotal it sees): Karpenter's default VM_MEMORY_OVERHEAD_PERCENT, 7.5%, for the same reason."""
FUSE_SIDECAR = Reserve(FUSE_SIDECAR_CPU_MILLIS, FUSE_SIDECAR_MEMORY_MIB)
"""Requests of the Cloud Storage FUSE sidecar GKE injects into each pod with gcsfuse weights
(gpuplat sets them to GKE's defaults with the pod's annotations, workload/weights.py)."""
ZERO = Reserve(0, 0)


@dataclass(frozen=True)
class NodeShare:
    """A node of one pool, what runs on it, and what its GPU units may request."""

    pool: str
    shape: Shape
    units: int
    """GPU units per node (GPUs, MIG instances or shared slices)."""
    kubelet: Reserve
    pods: tuple[NodePod, ...]
    """The DaemonSet pods on the node (the cloud's and gpuplat's add-ons')."""
    margin: NodeMargin

    @property
    def vm_memory_mib(self) -> int:
        return math.floor(float(self.shape.memory_gib) * 1024 * (1 - VM_MEMORY_OVERHEAD))

    @property
    def allocatable(self) -> Reserve:
        """What the kubelet offers pods: capacity less its reservation."""
        return Reserve(
            cpu_millis=self.shape.vcpus * 1000 - self.kubelet.cpu_millis,
            memory_mib=self.vm_memory_mib - self.kubelet.memory_mib,
        )

    @property
    def daemonsets(self) -> Reserve:
        """What the DaemonSet pods request together."""
        return total(self.pods)

    @property
    def free(self) -> Reserve:
        """What the node has for the workloads' pods to the last millicore: allocatable less
        the DaemonSets."""
        return Reserve(
            cpu_millis=self.allocatable.cpu_millis - self.daemonsets.cpu_millis,
            memory_mib=self.allocatable.memory_mib - self.daemonsets.memory_mib,
        )

    @property
    def reserved_margin(self) -> Reserve:
        """The margin left unclaimed on this node (its fixed part and its percentage)."""
        return Reserve(
            cpu_millis=self.margin.cpu_millis(self.allocatable.cpu_millis),
            memory_mib=self.margin.memory_mib(self.allocatable.memory_mib),
        )

    @property
    def cpu_millis(self) -> int:
        """CPU the workloads' replicas may request together on one node."""
        return self.free.cpu_millis - self.reserved_margin.cpu_millis

    @property
    def memory_mib(self) -> int:
        """Memory the workloads' replicas may request together on one node."""
        return self.free.memory_mib - self.reserved_margin.memory_mib

    def replica(self, gpus: int) -> Reserve:
        """What a pod taking ``gpus`` units may request in all (its containers together)."""
        return Reserve(
            cpu_millis=self.cpu_millis * gpus // self.units,
            memory_mib=self.memory_mib * gpus // self.units,
        )

    def explain(self, gpus: int) -> str:
        """The arithmetic, for people: a platform engineer can redo it from the catalog."""
        share = self.replica(gpus)
        margin = self.reserved_margin
        fixed = f"{self.margin.cpu} + {self.margin.percent:g}%"
        fixed_memory = f"{self.margin.memory} + {self.margin.percent:g}%"
        return (
            f"{self.shape.name}: {self.shape.vcpus} vCPU - {self.kubelet.cpu_millis}m kubelet "
            f"- {self.daemonsets.cpu_millis}m DaemonSets - {margin.cpu_millis}m margin "
            f"({fixed}) = {self.cpu_millis}m; {self.shape.memory_gib:g} GiB less "
            f"{VM_MEMORY_OVERHEAD:.1%} for the VM = {self.vm_memory_mib}Mi - "
            f"{self.kubelet.memory_mib}Mi kubelet - {self.daemonsets.memory_mib}Mi DaemonSets "
            f"- {margin.memory_mib}Mi margin ({fixed_memory}) = {self.memory_mib}Mi; x {gpus}/"
            f"{self.units} GPU units = {share.cpu_millis}m, {share.memory_mib}Mi per replica"
        )

    def pods_text(self) -> str:
        """The DaemonSets counted, for people."""
        return "DaemonSets: " + "; ".join(p.text for p in self.pods if p.requests != ZERO)


def node_share(spec: Spec, cluster: Cluster, pool: NodePool) -> NodeShare | None:
    """A pool's node and its GPU units; None when the catalog or the cloud's rules do not say."""
    gpu = resolve_pool(cluster, pool)
    cloud = target(cluster.cloud)
    if gpu.shape is None or not gpu.units_per_node:
        return None
    kubelet = cloud.kubelet_reserve(gpu.shape)
    pods = node_pods(spec, cluster, pool, gpu.shape)
    if kubelet is None or pods is None:
        return None
    return NodeShare(
        pool=pool.name,
        shape=gpu.shape,
        units=gpu.units_per_node,
        kubelet=kubelet,
        pods=pods,
        margin=catalog.node_margin(),
    )


def ephemeral_allocatable_gb(cluster: Cluster, pool: NodePool) -> float | None:
    """Disk a pool's pods may request as ephemeral storage (None: the cloud's rule is unknown)."""
    disk = target(cluster.cloud).ephemeral_disk(pool)
    return None if disk is None else float(disk.allocatable_gb)


def effective(server: Reserve, sidecars: Reserve, init: Reserve) -> Reserve:
    """What the scheduler counts for a pod: the larger of an init container and the rest."""
    return Reserve(
        cpu_millis=max(init.cpu_millis, server.cpu_millis + sidecars.cpu_millis),
        memory_mib=max(init.memory_mib, server.memory_mib + sidecars.memory_mib),
    )
