"""Rollouts that cannot deadlock a full GPU pool."""

from __future__ import annotations

from dataclasses import dataclass, replace

REVISION_HISTORY = 5
"""Old ReplicaSets kept for `kubectl rollout undo`."""


@dataclass(frozen=True)
class Rollout:
    """Rolling-update settings and the reason for them, written next to them as a comment."""

    max_surge: int
    max_unavailable: int
    capacity_replicas: int
    reason: str
    revision_history_limit: int = REVISION_HISTORY
    strategy: str = "RollingUpdate"
    """The Deployment's strategy type: RollingUpdate, or Recreate (max_surge and
    max_unavailable are then not written)."""


def running_at_rollout(low: int, high: int, *, scaled: bool) -> int:
    """Replicas that can be running when a rollout starts: the most an autoscaler (HPA or KEDA)
    may have scaled to, or the fixed count when nothing scales the workload. A fixed workload
    stays at its low bound whatever ``replicas.max`` says, so counting the max would refuse a
    surge that fits (one p5 replica with room for two would go down on every image change)."""
    return max(high if scaled else low, 1)


def rollout(
    fits: int,
    gpus_per_replica: int,
    max_replicas: int,
    capacity_text: str,
    *,
    fixed: bool = False,
    group_nodes: int = 1,
) -> Rollout:
    """Surge one replica only when the pools can place one more than can be running.

    Args:
        fits: Replicas the workload can be placed as, on the nodes its pools have at max_nodes,
            after the other workloads sharing those pools take their most (workload/capacity.py).
        gpus_per_replica: Units one replica takes.
        max_replicas: Most replicas that can be running at rollout time (running_at_rollout).
        capacity_text: How the capacity was computed, for the comment.
        fixed: Nothing scales the workload: ``max_replicas`` is its fixed count.
        group_nodes: Nodes of a multi-host replica (a group surges and goes down whole).
    """
    new, old = ("a new pod", "old pods")
    if group_nodes > 1:
        new, old = (f"a new group of {group_nodes} nodes", "old groups")
    running = f"{max_replicas} running (fixed: no autoscaler)" if fixed else None
    if fits >= max_replicas + 1:
        reason = (
            f"{capacity_text}: room for {fits} replicas of {gpus_per_replica} GPU unit(s); "
            f"with {running or f'at most {max_replicas} running'} one more fits, so "
            f"{new} starts before an old one stops (maxSurge 1, maxUnavailable 0)."
        )
        return Rollout(1, 0, fits, reason)
    reason = (
        f"{capacity_text}: room for {fits} replicas of {gpus_per_replica} GPU unit(s); "
        f"with {running or f'up to {max_replicas} running'} a surge pod could wait forever for "
        f"a GPU, so {old} are replaced one at a time (maxSurge 0, maxUnavailable 1)."
    )
    return Rollout(0, 1, fits, reason)


def recreate(plan: Rollout) -> Rollout:
    """The same rollout as a Recreate: every old pod stops before the new ones start."""
    return replace(
        plan,
        strategy="Recreate",
        reason="rollout_strategy recreate: every old pod stops before any new one starts "
        "(Deployment strategy Recreate), so two versions never hold GPUs at once; the workload "
        "serves nothing until the new pods are ready.",
    )
