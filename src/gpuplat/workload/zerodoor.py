"""Where a workload's address outside its cluster stands: the model server's own Service, or,
for a scale-to-zero workload, the KEDA HTTP interceptor.

A scale-to-zero workload at 0 replicas has a Service with no endpoints, and its requests must
pass the interceptor, which holds them while a replica starts and counts them for KEDA. Its
load balancer is therefore a Service in the interceptor's namespace selecting the interceptor's
pods; the interceptor routes a request by its Host header, so the names clients use (the spec's
``address.hosts`` and the front door's name) join the HTTPScaledObject's hosts.
"""

from __future__ import annotations

from dataclasses import replace

from gpuplat.spec.model import Workload
from gpuplat.targets import target
from gpuplat.workload.scaling import InterceptorDoor, Scaler

INTERCEPTOR_NAMESPACE = "keda"
"""Where the platform stage installs the KEDA HTTP add-on (gpu-platform's helm release)."""
INTERCEPTOR_SELECTOR = (
    ("app.kubernetes.io/component", "interceptor"),
    ("app.kubernetes.io/instance", "keda-add-ons-http"),
    ("app.kubernetes.io/name", "http-add-on"),
)
"""The interceptor's pods, as the chart's own proxy Service selects them; the release is named
keda-add-ons-http. Read in kedacore/charts at tag keda-add-ons-http-v0.12.0 (the pinned chart):
http-add-on/templates/interceptor/service-proxy.yaml selects component and name plus the
``keda-http-add-on.matchLabels`` of _helpers.tpl (part-of: the chart's name, managed-by: Helm,
instance: the release's name), and interceptor/deployment.yaml gives the pods all of them.
Three of the five select the same pods."""
INTERCEPTOR_PORT_NAME = "proxy"
"""The interceptor container's named proxy port (the chart's proxy Service's targetPort; the
container port is ``interceptor.proxy.port``, 8080 in the chart's values, as HTTP_INTERCEPTOR)."""


def server_address(workload: Workload, cloud: str) -> dict[str, str] | None:
    """The model server's LoadBalancer annotations, or None for a ClusterIP Service: no
    address, or a scale-to-zero workload (its address is the interceptor's)."""
    if workload.address is None or workload.scale_to_zero:
        return None
    return target(cloud).address_annotations(workload.address.scheme, workload.health_path)


def door_hosts(workload: Workload) -> tuple[str, ...]:
    """Host names clients send through the address: the spec's and the front door's name."""
    if workload.address is None:
        return ()
    names = list(workload.address.hosts)
    if workload.front_door is not None:
        names.append(workload.front_door.name)
    return tuple(dict.fromkeys(names))


def with_door(scaler: Scaler | None, workload: Workload, cloud: str) -> Scaler | None:
    """The scaler with a load balancer in front of its interceptor when the workload has an
    address and scales to zero (else unchanged)."""
    if scaler is None or scaler.http is None or workload.address is None:
        return scaler
    http = scaler.http
    door = InterceptorDoor(
        name=f"{workload.name}-door",
        namespace=INTERCEPTOR_NAMESPACE,
        selector=INTERCEPTOR_SELECTOR,
        target_port=INTERCEPTOR_PORT_NAME,
        annotations=tuple(
            sorted(target(cloud).interceptor_annotations(workload.address.scheme).items())
        ),
    )
    hosts = tuple(dict.fromkeys((*http.hosts, *door_hosts(workload))))
    return replace(scaler, http=replace(http, hosts=hosts, door=door))
