"""Autoscaling signals: the metric a workload scales on is one its model server exports."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.catalog.servers import Server, server, server_for_image, servers
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Workload


def server_of(workload: Workload) -> Server | None:
    """The model server a workload runs: named in the spec, else recognised from its image."""
    if workload.server is not None:
        return server(workload.server)
    return server_for_image(workload.image)


def check(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Refuse a metric the workload's server does not export, or a server gpuplat cannot tell."""
    metric = workload.autoscaling.metric
    if metric is None:
        return
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
