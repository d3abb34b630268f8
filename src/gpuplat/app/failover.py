"""`gpuplat failover`: check the target, then the two phases of the move, in the safe order."""

from __future__ import annotations

from pathlib import Path

from gpuplat.errors import GpuplatError
from gpuplat.spec.failover import Failover, Move, plan_failover
from gpuplat.spec.load import load_project
from gpuplat.spec.model import Role


def failover(root: Path, env: str, workload: str, to: str, source_role: Role) -> Failover:
    """The failover of ``workload`` to cluster ``to`` in ``env`` (nothing is changed).

    Raises:
        SpecError: The spec or the overlay has errors.
        GpuplatError: No such environment, workload, or cluster of the workload.
    """
    project = load_project(root, [env])
    found = project.envs.get(env)
    if found is None:
        raise GpuplatError(f'no environment "{env}"')
    return plan_failover(found, workload, to, source_role=source_role)


def _move_line(phase: int, move: Move) -> str:
    low, high = move.replicas
    return (
        f"  phase {phase}: {move.cluster} {move.before} -> {move.after} (replicas {low}..{high}; "
        f"GPUs always running {move.gpus_before} -> {move.gpus_after})"
    )


def _apply_lines(env: str, workload: str, move: Move) -> list[str]:
    return [
        f"    spec: workloads[{workload}].placements.{move.cluster}.role: {move.after}",
        f"    gpuplat plan {env} --cluster {move.cluster} --stage serving",
        f"    gpuplat apply {env} --cluster {move.cluster}",
    ]


def report_lines(env: str, plan: Failover) -> list[str]:
    """The failover as text: refused with the reasons, or the phases in order."""
    head = f"failover {plan.workload} to {plan.target} ({env})"
    if plan.refused:
        return [f"{head}: refused, the target cannot hold it"] + [f"  - {r}" for r in plan.reasons]
    assert plan.up is not None
    lines = [f"{head}: the target can hold it; in this order, never both down:"]
    lines += [_move_line(1, plan.up), *_apply_lines(env, plan.workload, plan.up)]
    deploy = f"-n {plan.namespace} deployment/{plan.workload}"
    if plan.scale_by_hand:
        lines.append(
            f"    kubectl scale {deploy} --replicas={plan.up.replicas[0]}"
            "   (the Deployment leaves its count to the autoscaler once it exists)"
        )
    lines.append(f"    kubectl rollout status {deploy}   (wait: ready before phase 2)")
    for move in plan.downs:
        lines += [_move_line(2, move), *_apply_lines(env, plan.workload, move)]
    return lines


def report_json(env: str, plan: Failover) -> dict[str, object]:
    """The failover as JSON."""

    def move(m: Move) -> dict[str, object]:
        return {
            "cluster": m.cluster,
            "from": m.before,
            "to": m.after,
            "replicas": list(m.replicas),
            "gpus_before": m.gpus_before,
            "gpus_after": m.gpus_after,
        }

    return {
        "environment": env,
        "workload": plan.workload,
        "target": plan.target,
        "refused": plan.refused,
        "reasons": list(plan.reasons),
        "phases": ([move(plan.up)] if plan.up else []) + [move(m) for m in plan.downs],
        "scale_by_hand": plan.scale_by_hand,
    }
