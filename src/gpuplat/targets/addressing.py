"""How each cloud gives a Service an address outside the cluster: the LoadBalancer annotations
for an internal or an external load balancer (each cloud's target sets its own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

Scheme = Literal["internal", "external"]


class AddressHooks:
    """The cloud's LoadBalancer Service annotations per scheme."""

    load_balancer: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Annotations of a LoadBalancer Service for an internal or an external load balancer."""
    address_is_ip: ClassVar[bool] = True
    """Whether the load balancer the cloud gives a Service is reached at an IP address (GKE,
    AKS) rather than a host name (EKS's NLB): a Cloud DNS front door health checks IPs only."""
    probe_path_annotation: ClassVar[str | None] = None
    """The annotation that makes the cloud's load balancer probe an HTTP path (None: the
    cloud probes the node port, and kube-proxy answers only for nodes with ready pods)."""

    probe_protocol_annotation: ClassVar[str | None] = None
    """The annotation that sets the probe's protocol, without which the path is not read."""

    def address_annotations(self, scheme: Scheme, health_path: str) -> dict[str, str]:
        """Annotations of the model server's LoadBalancer Service on this cloud."""
        out = dict(self.load_balancer.get(scheme, {}))
        if self.probe_path_annotation is not None:
            out[self.probe_path_annotation] = health_path
        if self.probe_protocol_annotation is not None:
            out[self.probe_protocol_annotation] = "http"
        return out

    def interceptor_annotations(self, scheme: Scheme) -> dict[str, str]:
        """Annotations of a LoadBalancer in front of the KEDA HTTP interceptor: the scheme's
        alone. The load balancer probes the port (each cloud's default for a TCP Service): an
        HTTP probe would pass through the interceptor, which answers only the hosts it routes
        and counts every request it holds."""
        return dict(self.load_balancer.get(scheme, {}))
