"""A cloud target's answers for autoscaling: which Prometheus KEDA queries for a model server's
metrics (the cloud's managed one, or one the platform stage installs in the cluster), what
collects the serving pods' metrics there, which module grants the query, and how many nodes
the cloud creates for a pool's minimum."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from gpuplat.spec.model import Cluster, NodePool

PrometheusKind = Literal["managed", "in-cluster"]
"""Where the serving pods' metrics are collected and queried (addons.metrics.prometheus)."""

MonitorKind = Literal["gmp", "prometheus-operator", "azure-monitor"]
"""The object that tells the collector to scrape the serving pods: a PodMonitoring (Google
Managed Prometheus), a PodMonitor of the Prometheus Operator (monitoring.coreos.com), or Azure
Monitor's copy of it (azmonitoring.coreos.com, read by the ama-metrics add-on)."""

PORT_NAME = "http"
"""Name of the server container's port (model-server module and plain manifests)."""
METRICS_PORT_NAME = "metrics"
"""Name of the container port of a server that serves /metrics on a port of its own (Triton's
8002; model-server module's ``local.metrics_name``)."""
WORKLOAD_LABEL = "gpuplat.dev/workload"
"""The pod label that selects a workload's pods (its Deployment's selector)."""

IN_CLUSTER_RELEASE = ("kube-prometheus-stack", "monitoring")
"""Helm release name and namespace of the in-cluster Prometheus (gpu-platform module)."""
IN_CLUSTER_ADDRESS = "http://kube-prometheus-stack-prometheus.monitoring.svc:9090"
"""Its query address: kube-prometheus-stack names the Service
``<fullname>-prometheus`` (templates/prometheus/service.yaml), where fullname is the release
name when it contains the chart's name (_helpers.tpl), on port 9090 (values.yaml
prometheus.service.port); chart 88.5.3."""


@dataclass(frozen=True)
class MetricsQuery:
    """Where KEDA's prometheus trigger asks, who signs the question, and what scrapes."""

    address: str
    """The query address (KEDA appends /api/v1/query), or, when ``address_ref`` is set, what
    the plain manifests say in its place (known once the infra stage is applied)."""
    auth_provider: str | None
    """KEDA pod-identity provider of the TriggerAuthentication (gcp, aws, azure-workload), or
    None for a Prometheus that needs no credentials."""
    monitor: MonitorKind | None
    """The scrape object the serving stage renders beside the ScaledObject, or None where the
    infra stage configures the collector itself (the AMP managed collector's scrape config)."""
    address_ref: str | None = None
    """The address as an expression of the serving root (an output of the infra stage)."""
    metadata: tuple[tuple[str, str], ...] = ()
    """Trigger metadata the signer needs besides the query (AMP: awsRegion)."""
    identity_owner: str | None = None
    """The TriggerAuthentication's podIdentity.identityOwner (aws: keda, the operator's own
    identity, which EKS Pod Identity gives), or None."""
    identity_ref: str | None = None
    """The TriggerAuthentication's identityId as an expression of the serving root (Azure:
    the client id of KEDA's user-assigned identity), or None."""
    identity_placeholder: str | None = None
    """What the plain manifests say in place of ``identity_ref``."""


IN_CLUSTER = MetricsQuery(IN_CLUSTER_ADDRESS, None, "prometheus-operator")
"""kube-prometheus-stack in the cluster: no credentials, PodMonitors select the pods."""


class ScalingHooks:
    """The autoscaling questions of a target; the defaults are a cloud whose managed Prometheus
    gpuplat does not render (the in-cluster one is its default)."""

    default_prometheus: ClassVar[PrometheusKind] = "in-cluster"
    """What ``addons.metrics.prometheus: auto`` means on this cloud (README: Autoscaling)."""
    metrics_reader_module: ClassVar[str | None] = None

    def prometheus_kind(self, choice: str) -> PrometheusKind:
        """The spec's ``addons.metrics.prometheus`` with ``auto`` resolved for this cloud."""
        if choice == "auto":
            return self.default_prometheus
        return "managed" if choice == "managed" else "in-cluster"

    def metrics_reader(self, cluster: Cluster) -> dict[str, object] | None:
        """Arguments of ``metrics_reader_module``: KEDA's query grant (None: none needed)."""
        return None

    def managed_query(self, cluster: Cluster) -> MetricsQuery | None:
        """The cloud's managed Prometheus as KEDA queries it, or None where gpuplat renders
        none for this cloud."""
        return None

    def metrics_query(self, cluster: Cluster, choice: str) -> MetricsQuery | None:
        """Where KEDA queries the serving pods' metrics on ``cluster`` for the spec's choice
        (None: the managed one was chosen and this cloud has none gpuplat renders)."""
        if self.prometheus_kind(choice) == "in-cluster":
            return IN_CLUSTER
        return self.managed_query(cluster)

    def min_nodes_created(self, cluster: Cluster, pool: NodePool | None) -> int:
        """Nodes the cloud creates for a pool's ``min_nodes`` in total (``pool`` None: the
        cluster's system pool), where they are counted per zone times its zones. The default
        is a cloud that creates the minimum as written."""
        if pool is None:
            return cluster.system_pool.min_nodes
        return pool.autoscaling.min_nodes
