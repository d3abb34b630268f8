"""Gang admission of a multi-host workload through Kueue: a group is admitted whole or not at all.

Kueue's LeaderWorkerSet integration (on by default since Kueue 0.15; docs
site/content/en/docs/tasks/run/leaderworkerset.md at v0.17.3) makes each group one Workload:
its pods wait behind a scheduling gate until the whole group fits the ClusterQueue's quota, so
a partial group never holds nodes waiting for the rest. Kueue refuses a Workload that requests
a resource its ClusterQueue does not cover ("resource X unavailable in ClusterQueue",
pkg/scheduler/flavorassigner), so the queue covers every resource a group's pods request, with a
quota of exactly the groups the workload may run (``replicas.max`` plus a rollout's surge).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuplat.workload.quantity import cpu_millis, cpu_text, memory_mib, memory_text

if TYPE_CHECKING:
    from gpuplat.workload.serving import ServingPlan

API_VERSION = "kueue.x-k8s.io/v1beta2"
PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology"
GROUP_NAME = "kueue.x-k8s.io/podset-group-name"
"""Kueue's topology-aware scheduling reads these from a LeaderWorkerSet's leader and worker
templates (site/content/en/docs/tasks/run/leaderworkerset.md at v0.17.3): the same group name
on both places the leader and its workers in one topology domain, per group."""
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
NAMESPACE_LABEL = "kubernetes.io/metadata.name"
_COUNTED = ("cpu",)
_BYTES = ("memory", "ephemeral-storage")
_NAME_MAX = 63
"""Kueue takes names of up to 253 characters (DNS subdomains); gpuplat keeps to a label's 63."""


@dataclass(frozen=True)
class QueuePlan:
    """The Kueue objects of one multi-host workload."""

    local_queue: str
    cluster_queue: str
    flavor: str
    node_labels: dict[str, str]
    quotas: dict[str, str]
    """Resource -> nominal quota, sorted by resource name (Kueue wants each flavor's resources
    in the order of coveredResources)."""
    namespace: str
    topology: tuple[str, ...] = ()
    """Node labels of a Topology (widest first) the flavor names; empty: no topology."""

    @property
    def topology_name(self) -> str:
        """Named after its levels, which Kueue holds immutable (``self == oldSelf``): other
        levels make another Topology, and the old one goes once no flavor names it."""
        return content_name(self.cluster_queue, list(self.topology))

    @property
    def flavor_name(self) -> str:
        """A flavor placed by topology holds its nodeLabels and topologyName immutable (Kueue's
        CRD rules): it is named after both, so another pool or Topology makes another flavor,
        the ClusterQueue names the new one, and the old one goes after."""
        if not self.topology:
            return self.flavor
        return content_name(self.flavor, [self.node_labels, self.topology_name])


def content_name(base: str, content: object) -> str:
    """``base`` with six hex digits of a hash of ``content``: a Kubernetes name, 63 characters
    at most, that changes when the content does."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:6]
    return f"{base[: _NAME_MAX - 7].rstrip('-.')}-{digest}"


def topology_annotations(name: str, preferred: str) -> dict[str, str]:
    """The pod template annotations of a group placed by topology: within one domain of the
    ``preferred`` level if it can, else the next level up and so on (preferred, not required:
    a group that fits nowhere closer is still admitted rather than left waiting)."""
    return {PREFERRED_TOPOLOGY: preferred, GROUP_NAME: name}


def _amount(resource: str, value: str) -> float:
    if resource in _COUNTED:
        return float(cpu_millis(value) or 0)
    if resource in _BYTES or resource.startswith("hugepages-"):
        return memory_mib(value) or 0.0
    return float(value)


def _text(resource: str, amount: float) -> str:
    if resource in _COUNTED:
        return cpu_text(math.ceil(amount))
    if resource in _BYTES or resource.startswith("hugepages-"):
        return memory_text(math.ceil(amount))
    return str(math.ceil(amount))


def plan_queue(
    name: str,
    namespace: str,
    pool: str,
    pool_label: str,
    pod_requests: list[dict[str, str]],
    pods: int,
    topology: tuple[str, ...] = (),
) -> QueuePlan:
    """The queue of a workload whose pods each request the largest of ``pod_requests`` (the
    server container and the init container: Kueue counts a pod as the larger of its
    containers' sum and any init container), ``pods`` of them at most."""
    most: dict[str, float] = {}
    for requests in pod_requests:
        for resource, value in requests.items():
            most[resource] = max(most.get(resource, 0.0), _amount(resource, value))
    quotas = {r: _text(r, most[r] * pods) for r in sorted(most)}
    return QueuePlan(
        local_queue=name,
        cluster_queue=f"gpuplat-{name}",
        flavor=f"gpuplat-{name}-{pool}",
        node_labels={pool_label: pool},
        quotas=quotas,
        namespace=namespace,
        topology=topology,
    )


def queue_of(plan: ServingPlan) -> QueuePlan | None:
    """The queue of a multi-host workload on a cluster with Kueue (None otherwise): room for
    ``replicas.max`` groups and the rollout's surge group."""
    group = plan.group
    if group is None or not plan.kueue:
        return None
    init = dict(plan.weights.init_requests) if plan.weights.mode == "copy" else {}
    pods = (plan.replicas_max + group.max_surge) * group.size
    pool = plan.pools[0]
    return plan_queue(
        plan.name,
        plan.namespace,
        pool,
        plan.pool_label,
        [plan.requests, init],
        pods,
        plan.topology,
    )
