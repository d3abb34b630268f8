"""What `gpuplat failover` and `gpuplat converge` still refuse of a multi-host workload's move.

A multi-host workload is a LeaderWorkerSet of groups. Since model-server 3.4.0 the set's apply
waits until every group is ready (its status counts them), as a Deployment's waits for its
rollout, so a move carries out like one: the target's apply returns once its groups serve,
and only then do the sources go. The set's count changes in place, so nothing is replaced.
An autoscaled set (KEDA's count) is held at the sources' groups for the length of the move
(app/hold.py; model-server 3.5.0 names the held count and waits for it), then handed back.
Two cases still cannot keep the workload serving, and are refused where they are written:

- (failover) an autoscaled group moved to a ``warm`` target: its ScaledObject already owns the
  count there, and KEDA's HPA would take the held groups back to its minimum while the apply
  waits for them (the hold reaches the ScaledObject only after the set is ready);
- (converge) a cluster whose role runs groups has no GPU fabric on the group's pool (the
  failover's check refuses such a target before this is asked).
"""

from __future__ import annotations

from gpuplat.errors import RefusedError
from gpuplat.spec.failover import Move, fabric_reason
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Workload
from gpuplat.spec.roles import bounds, on, role_of


def refuse_group_move(env: EnvSpec, workload: str, verb: str, to: str | None = None) -> None:
    """Refuse ``verb`` for ``workload`` (moved to ``to``, for a failover) where carrying out
    its group's move cannot be waited for; nothing for a one-pod workload or a group the move
    can wait for.

    Raises:
        RefusedError: An autoscaled group's target is warm (located at its placement's
            ``role``), or, for converge, a cluster that runs its groups has no fabric (located
            at ``multi_host``).
    """
    for i, found in enumerate(env.spec.workloads):
        if found.name != workload or found.multi_host is None:
            continue
        locator = Locator(env.tree, {"gpuplat.yaml": 0})
        if to is not None and autoscaled(found) and role_of(found, to) == "warm":
            path: tuple[str | int, ...] = ("workloads", i, "placements", to, "role")
            raise RefusedError(
                f"{verb} does not carry out the move of an autoscaled multi-host workload to a "
                f'warm standby: "{workload}" on {to} already has its ScaledObject, whose '
                "autoscaler would take the groups held for the move back to its minimum "
                "before the apply has waited for them",
                f"make {to} a cold standby (the move then holds and waits for its groups), or "
                "run gpuplat failover --dry-run and wait for the groups by hand",
                details=(
                    f"{locator.mark(path, at_key=True)}  workloads[{i}].placements.{to}.role",
                ),
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


def group_gpus(move: Move) -> tuple[int, int]:
    """(nodes, GPUs) of one group of the workload on the move's cluster."""
    low = move.replicas[0]
    return move.groups, move.gpus_after // low if low else 0


def held_lines(move: Move) -> list[str]:
    """What `gpuplat failover` does for an autoscaled group's target: the held count's GPUs."""
    nodes, gpus = group_gpus(move)
    low, high = move.replicas
    return [
        f"    KEDA owns the count: gpuplat failover holds the set at the groups the sources "
        f"serve ({low}..{high} groups x {nodes} nodes x {gpus // nodes if nodes else 0} GPUs: "
        f"{low * gpus}..{high * gpus} GPUs), its apply waits for every held group before "
        "phase 2, and the count goes back to KEDA once the sources are down",
    ]


def held_result(move: Move, floor: int, seen: str) -> str:
    """The result's line for an autoscaled group's target held at ``floor`` groups."""
    nodes, gpus = group_gpus(move)
    return (
        f"    {move.cluster} starts at {floor} group(s) x {nodes} nodes "
        f"({floor * gpus} GPUs), the count the source {seen}; its apply waited for them, and "
        "KEDA gets the count back once the source is down"
    )
