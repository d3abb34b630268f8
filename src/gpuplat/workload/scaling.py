"""How the replica count moves: an HPA on a per-pod metric, or KEDA down to zero and back.

Every window and threshold is decided here once; the model-server and scale-to-zero module
inputs and the plain manifests are written from these values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpuplat.spec.model import Workload

AutoscaleKind = Literal["none", "hpa", "keda"]

SCALE_DOWN_WINDOW = 600
"""Seconds the HPA waits before acting on a lower recommendation: a GPU replica takes minutes
to come back, so a dip in traffic must last before one is removed."""
SCALE_DOWN_POLICY = ("Pods", 1, 300)
"""At most one replica removed per five minutes."""
COOLDOWN = 600
"""Seconds a scale-to-zero workload stays warm after the last request: GPUs reload slowly."""
POLLING_INTERVAL = 15
"""Seconds between KEDA's checks of the triggers."""
TARGET_PENDING_REQUESTS = 4
"""Pending requests per replica the KEDA HTTP trigger aims for."""
HTTP_SCALER = "keda-add-ons-http-external-scaler.keda.svc.cluster.local:9090"
"""The KEDA HTTP add-on's external scaler, installed by the platform stage."""
HTTP_INTERCEPTOR = ("keda-add-ons-http-interceptor-proxy.keda.svc.cluster.local", 8080)
"""The KEDA HTTP add-on's interceptor proxy (host, port), installed by the platform stage."""


def number(value: float) -> str:
    """A metric target or threshold as Kubernetes quantities and KEDA want it: ``8``, ``0.5``."""
    return f"{value:g}"


@dataclass(frozen=True)
class ScaleDown:
    """The HPA's scale-down behaviour."""

    stabilization_window_seconds: int
    select_policy: str
    policy_type: str
    policy_value: int
    policy_period_seconds: int


@dataclass(frozen=True)
class Hpa:
    """A HorizontalPodAutoscaler on one per-pod metric."""

    metric: str
    average_value: str
    min_replicas: int
    max_replicas: int
    scale_down: ScaleDown


@dataclass(frozen=True)
class QueueTrigger:
    """KEDA's second trigger: a Prometheus query on the server's own queue."""

    address: str
    query: str
    threshold: str


@dataclass(frozen=True)
class ZeroScaler:
    """KEDA objects that scale a workload to zero and back, and the Service clients call."""

    front: str
    """Name of the ExternalName Service clients call (a name for the interceptor)."""
    hosts: tuple[str, ...]
    """Host headers the interceptor routes to the workload: the front Service's names."""
    interceptor_host: str
    interceptor_port: int
    http_scaler: str
    max_replicas: int
    cooldown_seconds: int
    polling_interval_seconds: int
    target_pending_requests: int
    queue: QueueTrigger | None


def autoscale_kind(workload: Workload, low: int, high: int) -> AutoscaleKind:
    """KEDA for scale-to-zero, an HPA when a metric can move the count, else a fixed count."""
    if workload.scale_to_zero:
        return "keda"
    if workload.autoscaling.metric is not None and high > low:
        return "hpa"
    return "none"


def hpa_for(workload: Workload, low: int, high: int) -> Hpa | None:
    """The HPA of a workload whose metric can move its replica count between low and high."""
    metric = workload.autoscaling.metric
    if autoscale_kind(workload, low, high) != "hpa" or metric is None:
        return None
    kind, value, period = SCALE_DOWN_POLICY
    return Hpa(
        metric=metric,
        average_value=number(workload.autoscaling.target),
        min_replicas=max(low, 1),
        max_replicas=high,
        scale_down=ScaleDown(SCALE_DOWN_WINDOW, "Min", kind, value, period),
    )


def zero_for(workload: Workload, namespace: str, high: int) -> ZeroScaler | None:
    """The KEDA objects of a scale-to-zero workload (None for any other)."""
    if not workload.scale_to_zero:
        return None
    front = f"{workload.name}-front"
    hosts = (
        front,
        f"{front}.{namespace}",
        f"{front}.{namespace}.svc",
        f"{front}.{namespace}.svc.cluster.local",
    )
    auto = workload.autoscaling
    queue = None
    if auto.prometheus_address and auto.metric:
        queue = QueueTrigger(
            auto.prometheus_address,
            f'sum({auto.metric}{{namespace="{namespace}"}})',
            number(auto.target),
        )
    host, port = HTTP_INTERCEPTOR
    return ZeroScaler(
        front=front,
        hosts=hosts,
        interceptor_host=host,
        interceptor_port=port,
        http_scaler=HTTP_SCALER,
        max_replicas=max(high, 1),
        cooldown_seconds=COOLDOWN,
        polling_interval_seconds=POLLING_INTERVAL,
        target_pending_requests=TARGET_PENDING_REQUESTS,
        queue=queue,
    )
