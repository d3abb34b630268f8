"""Autoscaling signals: the metric a workload scales on is one its model server exports."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gpuplat.catalog import servers as catalog_servers
from gpuplat.catalog.servers import Server, servers
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Workload
from gpuplat.targets import target


def server_of(workload: Workload) -> Server | None:
    """The model server a workload runs: named in the spec, else recognised from its image."""
    return catalog_servers.server_of(workload.server, workload.image)


def check(
    workload: Workload,
    clusters: Mapping[str, Cluster],
    base: KeyPath,
    loc: Locator,
    choice: str = "auto",
) -> Iterator[Diagnostic]:
    """Refuse a metric the workload's server does not export, a server gpuplat cannot tell,
    or a cluster where no Prometheus would answer the query (``choice``: the spec's
    addons.metrics.prometheus)."""
    own = server_of(workload)
    if own is not None and own.metrics_port == workload.port:
        yield loc.error(
            (*base, "port"),
            f"{own.name} serves its metrics on port {own.metrics_port}, so the workload cannot "
            "serve on it too",
            f"serve on another port (and tell {own.name} so in args)",
        )
    metric = workload.autoscaling.metric
    if metric is None:
        return
    if workload.autoscaling.prometheus_address is None:
        for name in workload.clusters:
            cluster = clusters.get(name)
            if cluster is None or target(cluster.cloud).metrics_query(cluster, choice) is not None:
                continue
            yield loc.error(
                (*base, "autoscaling", "metric"),
                f'{cluster.cloud.upper()} cluster "{name}" has no managed Prometheus gpuplat '
                f"renders, so nothing would read {metric}",
                "set addons.metrics.prometheus: in-cluster (the platform stage installs "
                "kube-prometheus-stack), or autoscaling.prometheus_address to the query URL of "
                "a Prometheus that scrapes the workload",
            )
    found = server_of(workload)
    if found is None:
        known = ", ".join(s.name for s in servers())
        yield loc.error(
            (*base, "autoscaling", "metric"),
            f'cannot tell which model server image "{workload.image}" runs, so not whether it '
            f"exports {metric}",
            f"set server: (one of {known})",
        )
        return
    if found.signal(metric) is None:
        have = ", ".join(s.metric for s in found.signals)
        yield loc.error(
            (*base, "autoscaling", "metric"),
            f"{found.name} does not export {metric}: a trigger on it would never read a value",
            f"scale {found.name} on one of: {have}",
        )
