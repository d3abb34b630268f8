"""How the replica count moves: one KEDA ScaledObject per autoscaled workload.

The design (README: Autoscaling): KEDA's ``prometheus`` trigger follows the model server's own
gauge (its queue, say) between the workload's bounds, and a scale-to-zero workload's
ScaledObject also carries the HTTP add-on's trigger, which takes it from 0 to 1 on the first
request. One object on every cloud; no custom- or external-metrics adapter to install; the two
triggers compose (the HPA that KEDA writes takes the larger of their recommendations).

Every window and threshold is decided here once; the scale-to-zero module inputs and the plain
manifests are written from these values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from gpuplat.catalog.servers import server_of
from gpuplat.spec.model import Workload
from gpuplat.targets.scaling import (
    METRICS_PORT_NAME,
    PORT_NAME,
    WORKLOAD_LABEL,
    MetricsQuery,
    MonitorKind,
)
from gpuplat.workload import group

AutoscaleKind = Literal["none", "keda"]

SCALE_DOWN_WINDOW = 600
"""Least seconds a lower recommendation must hold before a replica is removed: a GPU replica
takes minutes to come back (the window is raised to the workload's scale-out time)."""
SCALE_DOWN_POLICY = ("Pods", 1, 300)
"""At most one replica removed per five minutes."""
SCALE_UP_WINDOW = 60
"""Seconds a higher recommendation must hold before replicas are added: a burst shorter than a
minute is not worth a node start and a weight load."""
SCALE_UP_POLICY = ("Pods", 4, 60)
"""At most four replicas added per minute, so one scrape's outlier cannot order a fleet."""
COOLDOWN = 600
"""Seconds a scale-to-zero workload stays warm after the last request: GPUs reload slowly."""
POLLING_INTERVAL = 15
"""Seconds between KEDA's checks of the triggers."""
SCRAPE_INTERVAL = "15s"
"""How often the collector scrapes the server: as often as KEDA asks."""
TARGET_PENDING_REQUESTS = 4
"""Pending requests per replica the KEDA HTTP trigger aims for."""
HTTP_SCALER = "keda-add-ons-http-external-scaler.keda.svc.cluster.local:9090"
"""The KEDA HTTP add-on's external scaler, installed by the platform stage."""
HTTP_INTERCEPTOR = ("keda-add-ons-http-interceptor-proxy.keda.svc.cluster.local", 8080)
"""The KEDA HTTP add-on's interceptor proxy (host, port), installed by the platform stage."""


MONITOR_KINDS: dict[MonitorKind, tuple[str, str, str]] = {
    # prometheus-engine charts/operator/crds/monitoring.googleapis.com_podmonitorings.yaml
    "gmp": ("monitoring.googleapis.com/v1", "PodMonitoring", "endpoints"),
    # kube-prometheus-stack 88.5.3 charts/crds/crds/crd-podmonitors.yaml
    "prometheus-operator": ("monitoring.coreos.com/v1", "PodMonitor", "podMetricsEndpoints"),
    # Azure/prometheus-collector addon-chart templates/ama-metrics-podmonitor-crd.yaml
    "azure-monitor": ("azmonitoring.coreos.com/v1", "PodMonitor", "podMetricsEndpoints"),
}
"""apiVersion, kind and endpoints field of each scrape object, as their CRDs define them."""


def number(value: float) -> str:
    """A metric target or threshold as Kubernetes quantities and KEDA want it: ``8``, ``0.5``."""
    return f"{value:g}"


def queue_query(metric: str, namespace: str) -> str:
    """The PromQL KEDA runs: the gauge summed over the workload's pods (its namespace holds
    only them), so the recommendation is ceil(sum / threshold) replicas."""
    return f'sum({metric}{{namespace="{namespace}"}})'


def replicas_for(total: float, threshold: float, low: int, high: int) -> int:
    """Replicas the trigger asks for when the gauge sums to ``total`` over the pods."""
    return max(low, min(high, math.ceil(total / threshold)))


@dataclass(frozen=True)
class Policy:
    """One HPA scaling policy: at most ``value`` of ``type`` per ``period_seconds``."""

    type: str
    value: int
    period_seconds: int


@dataclass(frozen=True)
class Behavior:
    """The HPA behaviour KEDA writes: stabilisation windows and rate limits each way."""

    up_window_seconds: int
    up: Policy
    down_window_seconds: int
    down: Policy


@dataclass(frozen=True)
class QueueTrigger:
    """KEDA's prometheus trigger: a query on the server's own gauge, and who signs it."""

    address: str
    query: str
    threshold: str
    auth_provider: str | None
    """KEDA pod-identity provider of the TriggerAuthentication (gcp, aws, azure-workload), or
    None for a Prometheus that needs no credentials."""
    address_ref: str | None = None
    """The address as an expression of the serving root (an infra-stage output); ``address``
    is then what the plain manifests say in its place."""
    metadata: tuple[tuple[str, str], ...] = ()
    """Trigger metadata the signer needs besides the query (AMP: awsRegion)."""
    identity_owner: str | None = None
    """The TriggerAuthentication's podIdentity.identityOwner (aws: keda)."""
    identity_ref: str | None = None
    """The TriggerAuthentication's identityId as a serving-root expression (Azure)."""
    identity_placeholder: str | None = None


@dataclass(frozen=True)
class Scrape:
    """The collector's scrape of the workload's pods: a PodMonitoring (Google Managed
    Prometheus) or a PodMonitor (the Prometheus Operator's, or Azure Monitor's copy)."""

    selector: tuple[tuple[str, str], ...]
    """The Deployment's pod selector: the scrape selects exactly the serving pods."""
    port: str
    """The name of the container port that serves metrics (the server's API port)."""
    path: str
    interval: str
    monitor: MonitorKind = "gmp"

    @property
    def api_version(self) -> str:
        """The scrape object's apiVersion."""
        return MONITOR_KINDS[self.monitor][0]

    @property
    def kind(self) -> str:
        """The scrape object's kind."""
        return MONITOR_KINDS[self.monitor][1]

    @property
    def endpoints_field(self) -> str:
        """The spec field listing the pods' endpoints (``endpoints`` or ``podMetricsEndpoints``)."""
        return MONITOR_KINDS[self.monitor][2]


@dataclass(frozen=True)
class InterceptorDoor:
    """A LoadBalancer Service in front of the KEDA HTTP interceptor (workload/zerodoor.py)."""

    name: str
    namespace: str
    selector: tuple[tuple[str, str], ...]
    target_port: str
    annotations: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class HttpRoute:
    """The KEDA HTTP add-on's part of a scale-to-zero workload: 0 to 1 on the first request."""

    front: str
    """Name of the ExternalName Service clients call (a name for the interceptor)."""
    hosts: tuple[str, ...]
    """Host headers the interceptor routes to the workload: the front Service's names."""
    interceptor_host: str
    interceptor_port: int
    http_scaler: str
    target_pending_requests: int
    wait_seconds: int
    """How long the interceptor holds a request for this workload (its conditionWait): the
    Deployment's progress deadline, node start + pull + load."""
    door: InterceptorDoor | None = None
    """An address outside the cluster, in front of the interceptor; None: in-cluster only."""


@dataclass(frozen=True)
class Scaler:
    """The ScaledObject of an autoscaled workload: bounds, behaviour and its triggers."""

    min_replicas: int
    max_replicas: int
    cooldown_seconds: int
    polling_interval_seconds: int
    behavior: Behavior
    http: HttpRoute | None
    queue: QueueTrigger | None
    scrape: Scrape | None
    scale_out_seconds: int
    """A new replica on a new node: node start + image pull + weight load."""
    target: tuple[str, str] = ("apps/v1", "Deployment")
    """(apiVersion, kind) of what KEDA scales: the Deployment, or a multi-host workload's
    LeaderWorkerSet, whose scale subresource counts whole groups."""

    def queue_note(self, metric: str) -> str | None:
        """What a queue depth asks for and how long scaling out takes, for ``validate``."""
        if self.queue is None:
            return None
        target = float(self.queue.threshold)
        low = self.min_replicas or 1
        depths = sorted({target * low * 2, target * self.max_replicas})
        worked = ", ".join(
            f"{d:g} waiting ask for {replicas_for(d, target, low, self.max_replicas)}"
            for d in depths
        )
        return (
            f"{self.min_replicas}..{self.max_replicas} replicas on {metric}: "
            f"ceil(sum over the pods / {self.queue.threshold}) — {worked}; a replica on a new "
            f"node takes about {self.scale_out_seconds}s (node start + pull + load)"
        )

    def explain(self) -> str:
        """The bounds, triggers and windows in one line, for the comment above the module."""
        parts = []
        if self.http is not None:
            parts.append(
                "from 0 on the first request (clients call the front Service; the HTTP "
                "add-on's interceptor holds requests while a node and a replica start)"
            )
        if self.queue is not None:
            parts.append(
                f"{self.min_replicas or 1}..{self.max_replicas} replicas = ceil({self.queue.query} "
                f"/ {self.queue.threshold})"
            )
        b = self.behavior
        return (
            f"{'; '.join(parts)}. A new replica takes about {self.scale_out_seconds}s (node "
            f"start + pull + load): scale-up waits {b.up_window_seconds}s, scale-down "
            f"{b.down_window_seconds}s and removes {b.down.value} per {b.down.period_seconds}s."
        )


def autoscale_kind(workload: Workload, low: int, high: int) -> AutoscaleKind:
    """KEDA for scale-to-zero or a metric that can move the count, else a fixed count."""
    if workload.scale_to_zero:
        return "keda"
    if workload.autoscaling.metric is not None and high > low:
        return "keda"
    return "none"


def _http(workload: Workload, namespace: str, wait_seconds: int) -> HttpRoute:
    front = f"{workload.name}-front"
    hosts = (
        front,
        f"{front}.{namespace}",
        f"{front}.{namespace}.svc",
        f"{front}.{namespace}.svc.cluster.local",
    )
    host, port = HTTP_INTERCEPTOR
    return HttpRoute(front, hosts, host, port, HTTP_SCALER, TARGET_PENDING_REQUESTS, wait_seconds)


def scaler_for(
    workload: Workload,
    namespace: str,
    low: int,
    high: int,
    *,
    managed: MetricsQuery | None,
    scale_out_seconds: int,
    wait_seconds: int,
    scrape: Scrape | None = None,
) -> Scaler | None:
    """The ScaledObject of a workload between ``low`` and ``high`` (None for a fixed count).

    Args:
        managed: Where KEDA queries the cluster's Prometheus (the cloud's managed one or the
            in-cluster one, per addons.metrics.prometheus), used when the spec gives no
            ``prometheus_address``.
        scale_out_seconds: Node start + pull + load: the scale-down window is at least this,
            so one oscillation never pays for a node start and a weight load.
        wait_seconds: The progress deadline: how long the interceptor holds a request at zero.
        scrape: The collector's scrape of the pods, rendered (as the query's monitor kind)
            when the query goes to the Prometheus gpuplat chooses.
    """
    if autoscale_kind(workload, low, high) != "keda":
        return None
    auto = workload.autoscaling
    queue = None
    scraped = None
    if auto.metric is not None:
        query = queue_query(auto.metric, namespace)
        if auto.prometheus_address:
            queue = QueueTrigger(auto.prometheus_address, query, number(auto.target), None)
        elif managed is not None:
            queue = QueueTrigger(
                managed.address,
                query,
                number(auto.target),
                managed.auth_provider,
                address_ref=managed.address_ref,
                metadata=managed.metadata,
                identity_owner=managed.identity_owner,
                identity_ref=managed.identity_ref,
                identity_placeholder=managed.identity_placeholder,
            )
            if scrape is not None and managed.monitor is not None:
                scraped = replace(scrape, monitor=managed.monitor)
    kind, value, period = SCALE_DOWN_POLICY
    up_kind, up_value, up_period = SCALE_UP_POLICY
    behavior = Behavior(
        up_window_seconds=SCALE_UP_WINDOW,
        up=Policy(up_kind, up_value, up_period),
        down_window_seconds=max(SCALE_DOWN_WINDOW, scale_out_seconds),
        down=Policy(kind, value, period),
    )
    return Scaler(
        min_replicas=low,
        max_replicas=max(high, 1),
        cooldown_seconds=max(COOLDOWN, scale_out_seconds),
        polling_interval_seconds=POLLING_INTERVAL,
        behavior=behavior,
        http=_http(workload, namespace, wait_seconds) if workload.scale_to_zero else None,
        queue=queue,
        scrape=scraped,
        scale_out_seconds=scale_out_seconds,
        target=scale_target(workload),
    )


def scale_target(workload: Workload) -> tuple[str, str]:
    """(apiVersion, kind) KEDA scales: a multi-host workload's LeaderWorkerSet, else the
    Deployment. The set's scale subresource moves ``spec.replicas``, whole groups, and selects
    the leaders (kubernetes-sigs/lws api/leaderworkerset/v1/leaderworkerset_types.go:
    ``+kubebuilder:subresource:scale:specpath=.spec.replicas,...,selectorpath=
    .status.hpaPodSelector``, the leaders' labels)."""
    if workload.multi_host is not None:
        return (group.API_VERSION, group.KIND)
    return ("apps/v1", "Deployment")


def metrics_port(workload: Workload) -> int | None:
    """The server's own metrics port, when it is not the serving port (Triton's 8002)."""
    server = server_of(workload.server, workload.image)
    if server is None or server.metrics_port == "serving":
        return None
    return server.metrics_port


def scrape_of(workload: Workload) -> Scrape | None:
    """Where the workload's server serves its metrics, for the collector: the serving port,
    or the container port named ``metrics`` (Triton's 8002), selected by name."""
    server = server_of(workload.server, workload.image)
    if server is None:
        return None
    port = PORT_NAME if server.metrics_port == "serving" else METRICS_PORT_NAME
    selector: tuple[tuple[str, str], ...] = ((WORKLOAD_LABEL, workload.name),)
    if workload.multi_host is not None:
        # A group's leader serves the API and its metrics; the workers run ranks only. The
        # query's sum over leaders is then one term per group, as the trigger's target is.
        selector = (*selector, (group.WORKER_INDEX_LABEL, "0"))
    return Scrape(selector, port, server.metrics_path, SCRAPE_INTERVAL)
