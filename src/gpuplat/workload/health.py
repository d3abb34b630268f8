"""Health probes of a model server: startup (sized from the weights), readiness and liveness."""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat.workload.budget import StartupBudget

STARTUP_TIMEOUT = 5
"""Seconds one startup check may take; a loading server answers its health path quickly."""


@dataclass(frozen=True)
class Probe:
    """One HTTP probe of the server's health path."""

    period_seconds: int
    failure_threshold: int
    timeout_seconds: int

    @property
    def allows_seconds(self) -> int:
        """How long the probe tolerates failures before it acts."""
        return self.period_seconds * self.failure_threshold


READINESS = Probe(period_seconds=5, failure_threshold=3, timeout_seconds=5)
"""Traffic leaves a replica 15 s after it stops answering, and returns as soon as it answers."""
LIVENESS = Probe(period_seconds=10, failure_threshold=6, timeout_seconds=10)
"""A minute of failed health checks before a running server is restarted. Liveness only starts
once the startup probe has passed, so a server that is still loading is never restarted."""


@dataclass(frozen=True)
class Probes:
    """The three probes of the server container, on one health path."""

    path: str
    startup: Probe
    readiness: Probe
    liveness: Probe


def probes(path: str, budget: StartupBudget) -> Probes:
    """The server's probes: the startup probe allows what ``budget`` computed."""
    startup = Probe(budget.period_seconds, budget.failure_threshold, STARTUP_TIMEOUT)
    return Probes(path, startup, READINESS, LIVENESS)
