"""What `gpuplat failover` and `gpuplat converge` still refuse of a multi-host workload's move.

A multi-host workload is a LeaderWorkerSet of groups. Since model-server 3.4.0 the set's apply
waits until every group is ready (its status counts them), as a Deployment's waits for its
rollout, so a move carries out like one: the target's apply returns once its groups serve,
and only then do the sources go. The set's count changes in place, so nothing is replaced.
Two cases still cannot keep the workload serving, and are refused where they are written:

- an autoscaled group: its count is KEDA's (the set names no ``replicas``), so the target's
  apply changes the ScaledObject's minimum alone, nothing waits for a group, and the sources
  would go before the target serves;
- (converge) a cluster whose role runs groups has no GPU fabric on the group's pool (the
  failover's check refuses such a target before this is asked).
"""

from __future__ import annotations

from gpuplat.errors import RefusedError
from gpuplat.spec.failover import fabric_reason
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Workload
from gpuplat.spec.roles import bounds, on


def refuse_group_move(env: EnvSpec, workload: str, verb: str) -> None:
    """Refuse ``verb`` for ``workload`` where carrying out its group's move cannot be waited
    for; nothing for a one-pod workload or a group the move can wait for.

    Raises:
        RefusedError: The group is autoscaled (located at its ``autoscaling``), or, for
            converge, a cluster that runs its groups has no fabric (located at ``multi_host``).
    """
    for i, found in enumerate(env.spec.workloads):
        if found.name != workload or found.multi_host is None:
            continue
        locator = Locator(env.tree, {"gpuplat.yaml": 0})
        if autoscaled(found):
            path: tuple[str | int, ...] = ("workloads", i, "autoscaling")
            raise RefusedError(
                f"{verb} does not carry out the move of an autoscaled multi-host workload: "
                f'"{workload}" is a LeaderWorkerSet whose count of groups is KEDA\'s, so the '
                "target's apply returns before any of its groups is ready",
                "run gpuplat failover --dry-run for the phases and carry them out by hand, "
                "waiting for the target's groups as it says before the source goes; or give "
                "the workload a fixed count (replicas.min = replicas.max, no autoscaling)",
                details=(f"{locator.mark(path, at_key=True)}  workloads[{i}].autoscaling",),
            )
        if verb != "converge":
            return
        for cluster in found.clusters:
            reason = fabric_reason(env, found, cluster)
            if reason is None or bounds(found, cluster).low == 0:
                continue
            path = ("workloads", i, "multi_host")
            raise RefusedError(
                f'converge would run groups of "{workload}" on {cluster}, which has no GPU '
                f"fabric for them: {reason}",
                f"give {cluster}'s pool its fabric, or its placement the role cold",
                details=(f"{locator.mark(path, at_key=True)}  workloads[{i}].multi_host",),
            )


def autoscaled(workload: Workload) -> bool:
    """An autoscaler owns the count of ``workload`` on one of its clusters at least."""
    return any(on(workload, c).autoscaling.metric is not None for c in workload.clusters)


def ready_line(groups: int, count: int) -> str:
    """What phase 1's apply waits for when the workload is a group of ``groups`` nodes."""
    return (
        f"    the apply returns once every group of {groups} nodes is ready (terraform waits "
        f"until the set reports {count} groups ready and updated): only then phase 2"
    )
