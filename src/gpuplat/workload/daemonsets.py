"""What runs on every GPU node of a pool: the cloud's own DaemonSets and gpuplat's add-ons.

The catalog lists them with their requests and sources (``daemonsets.yaml``). Which run on a
pool's nodes follows from what the spec turns on, never from summing them all: the pool's cloud
says what its modules enable there (Dataplane V2, Workload Identity, its managed driver, device
plugin and DCGM metrics, the CSI drivers), and the add-ons gpuplat installs say where they land
(the NVIDIA device plugin chart or the GPU Operator, the DRA driver, the DCGM exporter chart,
the EFA device plugin on EFA instance types).
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat import catalog
from gpuplat.addons import dcgm_mode
from gpuplat.catalog import NodeDaemonSet, Shape
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets import target
from gpuplat.targets.node_reserve import Reserve


@dataclass(frozen=True)
class NodePod:
    """One DaemonSet's pod on a node, and what it requests."""

    name: str
    namespace: str
    owner: str
    """``cloud`` or ``gpuplat``."""
    requests: Reserve
    basis: str
    unverified: bool

    @property
    def text(self) -> str:
        mark = "" if not self.unverified else f" ({self.basis}, unverified)"
        return f"{self.name} {self.requests.cpu_millis}m/{self.requests.memory_mib}Mi{mark}"


def addon_features(spec: Spec, cluster: Cluster, pool: NodePool, shape: Shape) -> set[str]:
    """The add-ons gpuplat installs whose DaemonSets land on a pool's nodes.

    The NVIDIA device plugin chart's NFD worker tolerates every GPU taint, so it runs on every
    GPU node of a cluster with the chart, while the plugin itself skips pools whose node image
    has its own (Bottlerocket); the EFA plugin selects EFA instance types by itself.
    """
    cloud = target(cluster.cloud)
    plugin = cloud.device_plugin(spec)
    features: set[str] = set()
    if plugin == "nvidia-device-plugin":
        if any(not cloud.own_device_plugin(p) for p in cluster.node_pools):
            features.add("nvidia_device_plugin_chart")
        if not cloud.own_device_plugin(pool):
            features.add("nvidia_device_plugin")
    if plugin in ("gpu-operator", "dra"):
        features.add("gpu_operator")
    if plugin == "dra":
        features.add("nvidia_dra_driver")
    if dcgm_mode(spec, cluster) == "chart":
        features.add("dcgm_exporter_chart")
    if shape.efa and any(p.efa for p in cluster.node_pools):
        features.add("efa_device_plugin")
    if any(p.infiniband for p in cluster.node_pools):
        features.add("network_operator")
        if pool.infiniband:
            features.add("infiniband")
    return features


def node_pods(
    spec: Spec, cluster: Cluster, pool: NodePool, shape: Shape
) -> tuple[NodePod, ...] | None:
    """The DaemonSet pods on a node of ``pool`` (of ``shape``), or None when gpuplat keeps no
    account of the cloud's nodes."""
    own = target(cluster.cloud).node_features(spec, cluster, pool)
    if own is None:
        return None
    features = own | addon_features(spec, cluster, pool, shape)
    return tuple(
        _pod(entry) for entry in catalog.node_daemonsets(cluster.cloud) if entry.runs(features)
    )


def total(pods: tuple[NodePod, ...]) -> Reserve:
    """What the pods request together."""
    return Reserve(
        cpu_millis=sum(p.requests.cpu_millis for p in pods),
        memory_mib=sum(p.requests.memory_mib for p in pods),
    )


def _pod(entry: NodeDaemonSet) -> NodePod:
    return NodePod(
        name=entry.name,
        namespace=entry.namespace,
        owner=entry.owner,
        requests=Reserve(entry.cpu_millis, entry.memory_mib),
        basis=entry.basis,
        unverified=entry.unverified,
    )
