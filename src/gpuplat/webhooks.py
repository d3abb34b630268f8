"""Which add-ons of a cluster the API server must call back, and on which node ports.

KEDA (for scale-to-zero workloads), Kueue and LeaderWorkerSet register admission webhooks or
aggregated APIs that the control plane calls on the pods' own ports. A private GKE control plane
reaches its nodes only on 443 and 10250, so the infra stage opens these ports to it. The choice
of add-ons is made here once: the platform stage's plan (addons.py) asks the same functions, and
neither imports the cloud targets, so a target may ask too.
"""

from __future__ import annotations

from gpuplat import catalog
from gpuplat.spec.model import Cluster, Spec, Workload


def scale_to_zero(spec: Spec, cluster: Cluster) -> list[Workload]:
    """The workloads on ``cluster`` that scale to zero (KEDA and its HTTP add-on serve them)."""
    return [w for w in spec.workloads if w.scale_to_zero and cluster.name in w.clusters]


def autoscaled(spec: Spec, cluster: Cluster) -> list[Workload]:
    """The workloads on ``cluster`` that KEDA scales: to zero, or on a server metric."""
    return [
        w
        for w in spec.workloads
        if cluster.name in w.clusters and (w.scale_to_zero or w.autoscaling.metric is not None)
    ]


def webhook_charts(spec: Spec, cluster: Cluster) -> list[str]:
    """The charts installed on ``cluster`` that may have webhooks or aggregated APIs."""
    names: list[str] = []
    if autoscaled(spec, cluster):
        names.append("keda")
    if scale_to_zero(spec, cluster):
        names.append("keda-http-add-on")
    if spec.addons.gang_scheduling.kueue:
        names.append("kueue")
    if spec.addons.gang_scheduling.leader_worker_set:
        names.append("leaderworkerset")
    return names


def webhook_ports(spec: Spec, cluster: Cluster) -> tuple[int, ...]:
    """Node ports the control plane must reach for the add-ons of ``cluster``, sorted."""
    ports = {p for name in webhook_charts(spec, cluster) for p in catalog.chart(name).webhook_ports}
    return tuple(sorted(ports))
