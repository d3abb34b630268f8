"""Azure Monitor managed Prometheus for an AKS cluster's autoscaled workloads
(``addons.metrics.prometheus: managed``): where KEDA queries, and the infra stage's
aks-managed-prometheus call that creates the workspace, its data collection objects and KEDA's
query identity.

The cluster's ama-metrics add-on (aks-cluster's ``monitor_metrics``) scrapes what PodMonitors of
``azmonitoring.coreos.com`` select, one beside each ScaledObject. KEDA queries the workspace's
query endpoint with a token for the managed-Prometheus resource, taken as a user-assigned
identity through workload identity (``podIdentity.provider: azure-workload`` with that
identity's client id as ``identityId``; kedacore/keda
pkg/scalers/azure/azure_managed_prometheus_http_round_tripper.go). The identity holds
Monitoring Data Reader on the workspace and nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuplat.hcl.writer import raw
from gpuplat.render.naming import module_label
from gpuplat.render.views import CallView
from gpuplat.spec.model import Cluster
from gpuplat.targets.scaling import MetricsQuery, ScalingHooks
from gpuplat.webhooks import autoscaled

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

KEDA_OPERATOR = ("keda", "keda-operator")
"""Namespace and service account of KEDA's operator (the keda chart's defaults)."""


def _ref(cluster: Cluster, output: str) -> str:
    return f'local.clusters["{cluster.name}"].{output}'


def query(cluster: Cluster) -> MetricsQuery:
    """Where KEDA queries the cluster's Azure Monitor workspace: outputs of the infra stage."""
    return MetricsQuery(
        address=f"<query endpoint of the Azure Monitor workspace of {cluster.name}>",
        auth_provider="azure-workload",
        monitor="azure-monitor",
        address_ref=_ref(cluster, "prometheus_query_address"),
        identity_ref=_ref(cluster, "keda_client_id"),
        identity_placeholder=f"<client id of KEDA's identity on {cluster.name}>",
    )


def needed(target: ScalingHooks, env: EnvSpec, cluster: Cluster) -> bool:
    """A workload on ``cluster`` scales on a server metric KEDA reads from the managed
    Prometheus (addons.metrics.prometheus resolves to managed, no prometheus_address)."""
    if target.prometheus_kind(env.spec.addons.metrics.prometheus) != "managed":
        return False
    return any(
        w.autoscaling.metric is not None and w.autoscaling.prometheus_address is None
        for w in autoscaled(env.spec, cluster)
    )


def managed_prometheus_view(
    env: EnvSpec, cluster: Cluster, cluster_module: str, tags: dict[str, str]
) -> CallView:
    """The aks-managed-prometheus call of one cluster."""
    assert cluster.azure is not None  # the checks require azure for AKS clusters
    return CallView(
        module_label("metrics", cluster.name),
        {
            "name": cluster.name,
            "resource_group_name": cluster.azure.resource_group,
            "location": cluster.region,
            "cluster_id": raw(f"module.{cluster_module}.id"),
            "oidc_issuer_url": raw(f"module.{cluster_module}.oidc_issuer_url"),
            "keda": {"namespace": KEDA_OPERATOR[0], "service_account": KEDA_OPERATOR[1]},
            "tags": tags,
        },
    )
