"""What each cluster's platform stage installs so pods can use GPUs, and why.

Pure decisions on the validated spec: the renderer turns them into module arguments and plain
manifests. What a cloud ships or needs comes from its target; the labels the add-ons read are
put on the nodes by the target's ``pool_labels``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpuplat import catalog
from gpuplat.catalog import ChartPin
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.targets import ResolvedPlugin, target
from gpuplat.webhooks import autoscaled
from gpuplat.webhooks import scale_to_zero as zero_workloads
from gpuplat.workload.budget import startup_budget
from gpuplat.workload.weights import weights_for

Dcgm = Literal["managed", "chart", "operator", "off"]


@dataclass(frozen=True)
class SharingConfig:
    """A time-slicing or MPS config of the device plugin, selected per node pool."""

    name: str
    mode: Literal["time-slicing", "mps"]
    replicas: int


@dataclass(frozen=True)
class AddonsPlan:
    """Add-ons of one cluster."""

    cluster: str
    cloud: str
    device_plugin: ResolvedPlugin
    sharing: tuple[SharingConfig, ...]
    mig_strategy: Literal["single"] | None
    operator_driver: bool
    """The GPU Operator installs the driver (nodes whose image has none)."""
    gke_host_paths: bool
    """GKE COS keeps the driver and toolkit under /home/kubernetes/bin/nvidia."""
    dcgm: Dcgm
    keda: bool
    http_add_on: bool
    wait_timeout_seconds: int
    kueue: bool
    leader_worker_set: bool
    cluster_autoscaler: bool = False
    """EKS: the Kubernetes cluster autoscaler (GKE scales its node pools itself)."""
    region: str = ""
    gpu_pools: tuple[str, ...] = ()
    """Every GPU pool of the cluster: where the DCGM exporter runs."""
    plugin_pools: tuple[str, ...] = ()
    """GPU pools the Helm device plugin serves (not those whose image runs its own)."""
    pool_tolerations: tuple[tuple[str, str], ...] = ()
    """(key, effect) of every taint of the GPU pools' nodes besides nvidia.com/gpu (the spec's,
    and the cloud's own, such as AKS's on spot nodes): the GPU daemonsets tolerate them all."""
    efa_device_plugin: bool = False
    """A pool has EFA interfaces: the EFA device plugin advertises them."""
    network_operator: bool = False
    """A pool has InfiniBand (AKS): the NVIDIA Network Operator reconciles its NicClusterPolicy."""
    gpudirect_rdma: bool = False
    """InfiniBand pools whose driver the GPU Operator installs: its driver container loads
    nvidia-peermem too (driver.rdma), GPUDirect RDMA beside the Network Operator's DOCA driver."""
    kubernetes_minor: str | None = None
    """The minor the control plane runs, where the spec or gpuplat names it."""
    prometheus: bool = False
    keda_azure_identity: bool = False
    """KEDA's operator signs in with Azure workload identity (AKS managed Prometheus)."""
    """Install kube-prometheus-stack: a workload scales on a metric that the in-cluster
    Prometheus collects (addons.metrics.prometheus)."""

    def charts(self) -> dict[str, ChartPin]:
        """Pins of every chart this plan installs, by component name.

        A chart whose pinned release does not cover the cluster's Kubernetes minor (the
        cluster autoscaler: each release is built for one minor) is pinned at the newest
        release that does, where the chart calendar has one; at the catalog's pin otherwise,
        which the checks warn about.
        """
        names: list[str] = []
        if self.device_plugin == "nvidia-device-plugin" and self.plugin_pools:
            names.append("nvidia-device-plugin")
        if self.device_plugin in ("gpu-operator", "dra"):
            names.append("gpu-operator")
        if self.device_plugin == "dra":
            names.append("nvidia-dra-driver")
        if self.dcgm == "chart" and self.gpu_pools:
            names.append("dcgm-exporter")
        if self.efa_device_plugin:
            names.append("aws-efa-k8s-device-plugin")
        if self.network_operator:
            names.append("network-operator")
        if self.keda:
            names.append("keda")
        if self.http_add_on:
            names.append("keda-http-add-on")
        if self.kueue:
            names.append("kueue")
        if self.leader_worker_set:
            names.append("leaderworkerset")
        if self.cluster_autoscaler:
            names.append("cluster-autoscaler")
        if self.prometheus:
            names.append("kube-prometheus-stack")
        return {name: self._pin(name) for name in names}

    def _pin(self, name: str) -> ChartPin:
        pin = catalog.chart(name)
        lines = catalog.chart_support(name)
        pinned = lines.release(pin.version) if lines is not None else None
        minor = self.kubernetes_minor
        if lines is None or pinned is None or minor is None or pinned.covers(minor) is not False:
            return pin
        fitting = lines.newest_for(minor)
        return pin if fitting is None else pin.model_copy(update={"version": fitting.version})


def config_name(pool: NodePool) -> str:
    """Name of a pool's device-plugin config (the value of its config label)."""
    return pool.name


def plan_addons(spec: Spec, cluster: Cluster) -> AddonsPlan:
    """Decide the add-ons of one cluster."""
    cloud = target(cluster.cloud)
    plugin = cloud.device_plugin(spec)
    hands_out_gpus = plugin in ("nvidia-device-plugin", "gpu-operator")
    configs: list[SharingConfig] = []
    for pool in cluster.node_pools:
        mode = pool.sharing.mode
        if cloud.own_device_plugin(pool):
            continue  # shared through the node image's own plugin (the pool's user data)
        if hands_out_gpus and (mode == "time-slicing" or mode == "mps"):
            configs.append(SharingConfig(config_name(pool), mode, pool.sharing.max_clients or 1))
    sharing = tuple(configs)
    mig = any(p.sharing.mode == "mig" for p in cluster.node_pools)
    operator = plugin in ("gpu-operator", "dra")
    scale_to_zero = zero_workloads(spec, cluster)
    return AddonsPlan(
        cluster=cluster.name,
        cloud=cluster.cloud,
        device_plugin=plugin,
        sharing=sharing,
        mig_strategy=cloud.mig_strategy(plugin) if mig else None,
        operator_driver=operator and any(p.driver.install == "none" for p in cluster.node_pools),
        gke_host_paths=operator and cloud.operator_host_paths,
        dcgm=dcgm_mode(spec, cluster),
        keda=bool(autoscaled(spec, cluster)),
        http_add_on=bool(scale_to_zero),
        wait_timeout_seconds=max((cold_start_wait(w, cluster) for w in scale_to_zero), default=0),
        kueue=spec.addons.gang_scheduling.kueue,
        leader_worker_set=spec.addons.gang_scheduling.leader_worker_set,
        cluster_autoscaler=cloud.cluster_autoscaler,
        region=cluster.region,
        gpu_pools=tuple(p.name for p in cluster.node_pools),
        plugin_pools=tuple(p.name for p in cluster.node_pools if not cloud.own_device_plugin(p)),
        pool_tolerations=pool_tolerations(cluster),
        efa_device_plugin=any(p.efa for p in cluster.node_pools),
        network_operator=any(p.infiniband for p in cluster.node_pools),
        gpudirect_rdma=operator
        and any(p.infiniband and p.driver.install == "none" for p in cluster.node_pools),
        kubernetes_minor=cloud.kubernetes_minor(cluster),
        prometheus=in_cluster_prometheus(spec, cluster),
        keda_azure_identity=keda_signs_in_to_azure(spec, cluster),
    )


def keda_signs_in_to_azure(spec: Spec, cluster: Cluster) -> bool:
    """KEDA queries Azure Monitor managed Prometheus on ``cluster`` as a workload identity."""
    query = target(cluster.cloud).metrics_query(cluster, spec.addons.metrics.prometheus)
    return (
        query is not None
        and query.auth_provider == "azure-workload"
        and any(
            w.autoscaling.metric is not None and w.autoscaling.prometheus_address is None
            for w in autoscaled(spec, cluster)
        )
    )


def in_cluster_prometheus(spec: Spec, cluster: Cluster) -> bool:
    """A workload on ``cluster`` scales on a server metric that KEDA reads from the in-cluster
    Prometheus (no prometheus_address of its own, and addons.metrics.prometheus resolves to
    in-cluster on this cloud)."""
    kind = target(cluster.cloud).prometheus_kind(spec.addons.metrics.prometheus)
    return kind == "in-cluster" and any(
        w.autoscaling.metric is not None and w.autoscaling.prometheus_address is None
        for w in autoscaled(spec, cluster)
    )


def cold_start_wait(workload: Workload, cluster: Cluster) -> int:
    """How long the HTTP interceptor holds a request at zero replicas: the Deployment's progress
    deadline (a GPU node's start, the pull, the copy and what the startup probe allows)."""
    budget = startup_budget(
        workload.model.size_gb,
        workload.model.load_bandwidth_mbps,
        workload.image_pull_time,
        workload.load_time_budget,
        copied=weights_for(workload, cluster).mode == "copy",
    )
    return budget.progress_deadline_seconds


def dcgm_mode(spec: Spec, cluster: Cluster) -> Dcgm:
    """Who exports a cluster's DCGM metrics: the GPU Operator, the cloud itself, gpuplat's
    chart, or no one (``addons.metrics.dcgm_exporter`` off)."""
    if not spec.addons.metrics.dcgm_exporter:
        return "off"
    cloud = target(cluster.cloud)
    if cloud.device_plugin(spec) in ("gpu-operator", "dra"):
        return "operator"
    return "managed" if cloud.managed_dcgm else "chart"


def pool_tolerations(cluster: Cluster) -> tuple[tuple[str, str], ...]:
    """(key, effect) of every GPU node taint but nvidia.com/gpu:NoSchedule, in spec order.

    The taints are the nodes' as the cloud sets them (the spec's, plus e.g. AKS's spot taint).
    The daemonsets tolerate a key with any value (operator Exists), so a pool's value can
    change without re-rendering the platform stage.
    """
    cloud = target(cluster.cloud)
    seen: dict[tuple[str, str], None] = {}
    for pool in cluster.node_pools:
        for taint in cloud.node_taints(pool):
            if not (taint.key == "nvidia.com/gpu" and taint.effect == "NoSchedule"):
                seen.setdefault((taint.key, taint.effect), None)
    return tuple(seen)
