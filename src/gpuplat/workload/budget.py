"""Startup arithmetic: how long a weight-loading server may take before it is ready."""

from __future__ import annotations

import math
from dataclasses import dataclass

PROBE_PERIOD_SECONDS = 10
"""Startup probe period; short enough to mark a loaded server ready soon after it is."""


@dataclass(frozen=True)
class StartupBudget:
    """The numbers behind the startup probe."""

    pull_seconds: int
    load_seconds: int
    estimate_seconds: int
    """Image pull plus weight load: the least time a fresh pod needs."""
    window_seconds: int
    """What the startup probe allows: the load-time budget, never less than the estimate."""
    period_seconds: int
    failure_threshold: int

    @property
    def probe_allows_seconds(self) -> int:
        return self.failure_threshold * self.period_seconds

    @property
    def progress_deadline_seconds(self) -> int:
        """How long a rollout may go without progress before the Deployment reports it stuck."""
        return self.probe_allows_seconds + 600


def load_seconds(size_gb: float, bandwidth_mbps: float) -> int:
    """Seconds to move ``size_gb`` GB at ``bandwidth_mbps`` MB/s (decimal units), rounded up."""
    return math.ceil(size_gb * 1000.0 / bandwidth_mbps)


def startup_budget(
    size_gb: float,
    bandwidth_mbps: float,
    pull_seconds: int,
    load_time_budget: int,
    period_seconds: int = PROBE_PERIOD_SECONDS,
) -> StartupBudget:
    """The startup probe for a server: ``failure_threshold * period >= pull + load``.

    The window is the workload's load-time budget when that is longer than the estimate, so a
    slow pull or a cold bucket does not get a healthy pod restarted mid-load.
    """
    load = load_seconds(size_gb, bandwidth_mbps)
    estimate = pull_seconds + load
    window = max(load_time_budget, estimate)
    threshold = math.ceil(window / period_seconds)
    return StartupBudget(pull_seconds, load, estimate, window, period_seconds, threshold)
