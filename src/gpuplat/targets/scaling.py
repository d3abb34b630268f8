"""A cloud target's answers for autoscaling a model server on its own metrics: where KEDA
queries the cluster's managed Prometheus and which module grants that query."""

from __future__ import annotations

from typing import ClassVar

from gpuplat.spec.model import Cluster


class ScalingHooks:
    """The autoscaling questions of a target; the defaults are a cloud with no managed
    Prometheus gpuplat queries (the spec gives ``autoscaling.prometheus_address``)."""

    metrics_reader_module: ClassVar[str | None] = None

    def metrics_reader(self, cluster: Cluster) -> dict[str, object] | None:
        """Arguments of ``metrics_reader_module``: KEDA's query grant (None: none needed)."""
        return None

    def metrics_query(self, cluster: Cluster) -> tuple[str, str] | None:
        """Where KEDA queries the cluster's managed Prometheus and the KEDA pod-identity
        provider that signs the query, or None (the spec gives prometheus_address)."""
        return None
