"""Startup arithmetic: how long a weight-loading server may take before it is ready.

A new replica goes through, in order: a node to run on (on a GPU pool that scaled out, a new
node: minutes), the image pull, the init container's copy of the weights (copy mode only), and
the server loading the weights into GPU memory. The kubelet starts the probes only with the
server container, after the pull and the copy. So:

- the startup probe must allow the server's load, and no less than what ``load_time_budget``
  (measured from pod start) leaves after the pull: a pod that is still within the budget is
  never restarted;
- the Deployment's progress deadline must allow all of it: a new node, the pull, the copy and
  the startup probe's whole window, or a rollout that is merely slow is reported stuck.

``load_bandwidth_mbps`` is the rate at which weights reach GPU memory, download and load
together; in copy mode the init container's download and the server's load are two steps of
it, so each is allowed the whole load time (their split is not known).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PROBE_PERIOD_SECONDS = 10
"""Startup probe period; short enough to mark a loaded server ready soon after it is."""
NODE_START_SECONDS = 600
"""A new GPU node, from the autoscaler's decision to Ready with its GPUs advertised: VM start,
boot, driver and device plugin. GKE and EKS GPU nodes typically take 5 to 10 minutes."""


@dataclass(frozen=True)
class StartupBudget:
    """The numbers behind the startup probe and the progress deadline."""

    pull_seconds: int
    """Image pull: before any container of the pod starts."""
    copy_seconds: int
    """The init container's copy (copy mode; 0 otherwise): before the server starts."""
    load_seconds: int
    """The weights at the load bandwidth: what the server may spend loading them."""
    budget_seconds: int
    """The workload's load_time_budget, from pod start to ready."""
    window_seconds: int
    """What the startup probe must allow: the load, and what the budget leaves after the pull."""
    period_seconds: int
    failure_threshold: int
    node_start_seconds: int = NODE_START_SECONDS

    @property
    def estimate_seconds(self) -> int:
        """The least a pod on a ready node needs: image pull plus weights at the bandwidth."""
        return self.pull_seconds + self.load_seconds

    @property
    def probe_allows_seconds(self) -> int:
        return self.failure_threshold * self.period_seconds

    @property
    def before_probes_seconds(self) -> int:
        """Longest time from pod start until the kubelet runs the first probe."""
        return self.pull_seconds + self.copy_seconds

    @property
    def progress_deadline_seconds(self) -> int:
        """How long a rollout may go without a new ready pod before it is reported stuck."""
        return self.node_start_seconds + self.before_probes_seconds + self.probe_allows_seconds

    def explain(self) -> str:
        """The arithmetic in one line, for the comment beside the module inputs."""
        copy = f" and the weights copy ({self.copy_seconds}s)" if self.copy_seconds else ""
        return (
            f"probes start after the image pull ({self.pull_seconds}s){copy}; the server loads "
            f"the weights in about {self.load_seconds}s. The startup probe allows "
            f"{self.period_seconds}s x {self.failure_threshold} = {self.probe_allows_seconds}s: "
            f"what load_time_budget {self.budget_seconds}s leaves after the pull. The progress "
            f"deadline, {self.progress_deadline_seconds}s, adds a new node's start "
            f"({self.node_start_seconds}s), the pull and the copy to it."
        )


def load_seconds(size_gb: float, bandwidth_mbps: float) -> int:
    """Seconds to move ``size_gb`` GB at ``bandwidth_mbps`` MB/s (decimal units), rounded up."""
    return math.ceil(size_gb * 1000.0 / bandwidth_mbps)


def startup_budget(
    size_gb: float,
    bandwidth_mbps: float,
    pull_seconds: int,
    load_time_budget: int,
    *,
    copied: bool = False,
    copy_mbps: float | None = None,
    fill_mbps: float | None = None,
    period_seconds: int = PROBE_PERIOD_SECONDS,
) -> StartupBudget:
    """The startup probe and progress deadline of a server.

    Args:
        size_gb: Size of the weights.
        bandwidth_mbps: Rate at which they reach GPU memory (download and load).
        pull_seconds: Expected image pull on a fresh node.
        load_time_budget: Longest acceptable time from pod start to ready.
        copied: An init container copies the weights before the server starts.
        copy_mbps: MB/s the node's disk gives one replica's copy (None: not known); the copy
            goes no faster than the slower of it and ``bandwidth_mbps``.
        fill_mbps: MB/s the node's disk gives one replica's Cloud Storage FUSE file cache
            (None: not known, or no cache on a disk); the server reads the weights through the
            cache, so it loads them no faster than the slower of it and ``bandwidth_mbps``.
        period_seconds: Startup probe period.
    """
    load = load_seconds(size_gb, min(bandwidth_mbps, fill_mbps or bandwidth_mbps))
    copy = load_seconds(size_gb, min(bandwidth_mbps, copy_mbps or bandwidth_mbps))
    window = max(load, load_time_budget - pull_seconds)
    threshold = math.ceil(window / period_seconds)
    return StartupBudget(
        pull_seconds=pull_seconds,
        copy_seconds=copy if copied else 0,
        load_seconds=load,
        budget_seconds=load_time_budget,
        window_seconds=window,
        period_seconds=period_seconds,
        failure_threshold=threshold,
    )
