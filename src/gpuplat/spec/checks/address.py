"""A workload's address outside its clusters and its front door: what each can stand in front of."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Workload


def check(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A front door needs a public address (a scale-to-zero workload's is the interceptor's)."""
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
