"""Amazon Managed Service for Prometheus for an EKS cluster's autoscaled workloads
(``addons.metrics.prometheus: managed``): where KEDA queries, and the infra stage's
eks-managed-prometheus call that creates the workspace, the managed collector and KEDA's
query role.

The collector is configured in the infra stage, not by an object beside the ScaledObject: an
AWS managed collector reads one scrape configuration given when it is created (AMP user guide,
"Using an AWS managed collector"), whose jobs keep exactly the serving pods. The query goes
through the workspace's Prometheus-compatible API, signed by KEDA's operator with SigV4
(kedacore/keda pkg/scalers/aws/aws_sigv4.go: service ``aps``, the region from the trigger's
``awsRegion``), its credentials from EKS Pod Identity (``podIdentity.provider: aws`` with
``identityOwner: keda``, pkg/scalers/aws/aws_common.go).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuplat.catalog.servers import server_of
from gpuplat.hcl.writer import raw
from gpuplat.render.naming import module_label
from gpuplat.render.views import CallView
from gpuplat.spec.model import Cluster, Spec
from gpuplat.targets.scaling import (
    METRICS_PORT_NAME,
    PORT_NAME,
    WORKLOAD_LABEL,
    MetricsQuery,
    ScalingHooks,
)
from gpuplat.targets.tags import resource_labels
from gpuplat.webhooks import autoscaled

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

SCRAPE_INTERVAL = "30s"
"""AMP's managed collector takes no scrape interval under 30 s (user guide, "Scraper
configuration", limitations)."""
KEDA_OPERATOR = ("keda", "keda-operator")
"""Namespace and service account of KEDA's operator (the keda chart's defaults)."""


def query(cluster: Cluster) -> MetricsQuery:
    """Where KEDA queries the cluster's AMP workspace: an output of the infra stage."""
    return MetricsQuery(
        address=f"<query address of the Amazon Managed Prometheus workspace of {cluster.name}>",
        auth_provider="aws",
        monitor=None,
        address_ref=f"local.clusters[{_quoted(cluster.name)}].prometheus_query_address",
        metadata=(("awsRegion", cluster.region),),
        identity_owner="keda",
    )


def _quoted(text: str) -> str:
    return '"' + text + '"'


def targets(spec: Spec, cluster: Cluster) -> list[dict[str, object]]:
    """The serving pods the collector keeps: workloads on ``cluster`` that scale on a server
    metric KEDA reads from the managed Prometheus (no prometheus_address of their own)."""
    out: list[dict[str, object]] = []
    for workload in autoscaled(spec, cluster):
        auto = workload.autoscaling
        if auto.metric is None or auto.prometheus_address is not None:
            continue
        server = server_of(workload.server, workload.image)
        if server is None:
            continue  # refused by the spec checks
        port = PORT_NAME if server.metrics_port == "serving" else METRICS_PORT_NAME
        out.append(
            {
                "workload": workload.name,
                "namespace": workload.name,
                "label": workload.name,
                "port": port,
                "path": server.metrics_path,
            }
        )
    return out


def managed_prometheus_view(
    target: ScalingHooks, env: EnvSpec, cluster: Cluster, cluster_module: str
) -> CallView | None:
    """The eks-managed-prometheus call of a cluster whose workloads KEDA scales on AMP, else
    None."""
    if target.prometheus_kind(env.spec.addons.metrics.prometheus) != "managed":
        return None
    found = targets(env.spec, cluster)
    if not found:
        return None
    return CallView(
        module_label("metrics", cluster.name),
        {
            "name": raw(f"module.{cluster_module}.name"),
            "cluster_arn": raw(f"module.{cluster_module}.arn"),
            "subnet_ids": raw(f"module.{cluster_module}.subnet_ids"),
            "security_group_ids": [raw(f"module.{cluster_module}.cluster_security_group_id")],
            "scrape_interval": SCRAPE_INTERVAL,
            "label_key": WORKLOAD_LABEL,
            "targets": found,
            "keda": {"namespace": KEDA_OPERATOR[0], "service_account": KEDA_OPERATOR[1]},
            "tags": resource_labels(env, cluster),
        },
    )
