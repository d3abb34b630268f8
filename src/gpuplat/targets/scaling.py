"""A cloud target's answers for autoscaling: where KEDA queries the cluster's managed
Prometheus for a model server's metrics, which module grants that query, and how many nodes the
cloud creates for a pool's minimum."""

from __future__ import annotations

from typing import ClassVar

from gpuplat.spec.model import Cluster, NodePool


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

    def min_nodes_created(self, cluster: Cluster, pool: NodePool | None) -> int:
        """Nodes the cloud creates for a pool's ``min_nodes`` in total (``pool`` None: the
        cluster's system pool), where they are counted per zone times its zones. The default
        is a cloud that creates the minimum as written."""
        if pool is None:
            return cluster.system_pool.min_nodes
        return pool.autoscaling.min_nodes
