"""A workload's address outside its clusters and its front door: what each can stand in front of."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Workload


def check(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """An address is in front of the model server's own Service; a front door needs a public one."""
    if workload.address is not None and workload.scale_to_zero:
        # The KEDA HTTP add-on counts the requests its interceptor sees: a load balancer in
        # front of the model server's Service would bypass it, and KEDA would take the
        # workload to zero while it serves.
        yield loc.error(
            (*base, "address"),
            "an address in front of a scale_to_zero workload would bypass the KEDA HTTP "
            "interceptor, which counts its requests: KEDA would scale it to zero under load",
            "remove address (clients in the cluster call the interceptor's front Service), or "
            "turn scale_to_zero off and scale on the server's queue (autoscaling.metric)",
            at_key=True,
        )
    door = workload.front_door
    if door is None:
        return
    if workload.address is None or workload.address.scheme != "external":
        # Route 53's health checkers are on the internet: they cannot reach an internal
        # load balancer, and a record whose check never passes is never answered.
        yield loc.error(
            (*base, "front_door"),
            "a Route 53 front door needs address.scheme external: its health checkers probe "
            "each placement's address from the internet",
            "set address: {scheme: external}",
            at_key=True,
        )
