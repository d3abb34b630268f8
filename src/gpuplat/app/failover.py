"""`gpuplat failover --dry-run`: check the target, then the two phases of the move, in the safe order."""

from __future__ import annotations

from pathlib import Path

from gpuplat.app.groupmove import held_lines, ready_line
from gpuplat.errors import GpuplatError
from gpuplat.render.frontdoor import SERVING_WEIGHT
from gpuplat.render.naming import door_dir
from gpuplat.spec.failover import Door, Failover, Move, plan_failover
from gpuplat.spec.load import EnvSpec, load_project
from gpuplat.spec.model import Role


def load_env(root: Path, env: str) -> EnvSpec:
    """One environment of the project in ``root``, checked.

    Raises:
        SpecError: The spec or the overlay has errors.
        GpuplatError: No such environment.
    """
    found = load_project(root, [env]).envs.get(env)
    if found is None:
        raise GpuplatError(f'no environment "{env}"')
    return found


def failover(root: Path, env: str, workload: str, to: str, source_role: Role) -> Failover:
    """The failover of ``workload`` to cluster ``to`` in ``env`` (nothing is changed).

    Raises:
        SpecError: The spec or the overlay has errors.
        GpuplatError: No such environment, workload, or cluster of the workload.
    """
    spec_env = load_env(root, env)
    return plan_failover(spec_env, workload, to, source_role=source_role)


def move_line(phase: int, move: Move) -> str:
    """One phase of the move as a line."""
    low, high = move.replicas
    return (
        f"  phase {phase}: {move.cluster} {move.before} -> {move.after} (replicas {low}..{high}; "
        f"GPUs always running {move.gpus_before} -> {move.gpus_after})"
    )


def plan_then_apply(env: str, cluster: str) -> str:
    """One shell line that plans a cluster's serving root and applies it when there is anything
    to apply: ``plan`` exits 10 when it planned changes, so ``plan && apply`` would never apply."""
    return (
        f"(gpuplat plan {env} --cluster {cluster} --stage serving || [ $? -eq 10 ]) && "
        f"gpuplat apply {env} --cluster {cluster}"
    )


def _apply_lines(env: str, workload: str, move: Move, door: Door | None) -> list[str]:
    spec = f"    spec: workloads[{workload}].placements.{move.cluster}.role: {move.after}"
    if door is not None and move.replace and move.before == "active":
        # One apply cannot lower the weight before it replaces the Deployment: by hand, the
        # plan without the replacement (the Deployment keeps its count) takes it out of the
        # door, and converge replaces the Deployment once the TTL has passed.
        return [
            spec,
            "    out of the front door first (the Deployment keeps serving: not replaced, its "
            "replicas kept; its weight and the outputs change):",
            f"      gpuplat plan {env} --cluster {move.cluster} --stage serving",
            f"      gpuplat apply {env} --cluster {move.cluster}",
            f"    after the TTL ({door.ttl} s), the replacement: gpuplat converge {workload} "
            f"-e {env}",
        ]
    if move.replace:
        # A plain plan leaves a running Deployment's count alone (terraform ignores it): only
        # converge (or the failover itself) plans the replacement, with the record after it.
        return [spec, f"    gpuplat converge {workload} -e {env}"]
    return [
        spec,
        f"    gpuplat plan {env} --cluster {move.cluster} --stage serving",
        f"    gpuplat apply {env} --cluster {move.cluster}",
    ]


def report_lines(env: str, plan: Failover) -> list[str]:
    """The failover as text: refused with the reasons, or the phases in order, each with the
    commands that carry it out by hand (what `gpuplat failover` without --dry-run runs)."""
    head = f"failover {plan.workload} to {plan.target} ({env})"
    if plan.refused:
        return [f"{head}: refused, the target cannot hold it"] + [f"  - {r}" for r in plan.reasons]
    assert plan.up is not None
    lines = [f"{head}: the target can hold it; in this order, never both down:"]
    deploy = f"deployment/{plan.workload} (namespace {plan.namespace})"
    for phase, move in [(1, plan.up), *((2, m) for m in plan.downs)]:
        lines += [move_line(phase, move), *_apply_lines(env, plan.workload, move, plan.door)]
        if move.replace:
            # No autoscaler changes this count: by hand, converge replaces the Deployment (a
            # plain plan does not); a `kubectl scale` would be undone by nothing.
            lines.append(
                f"    converge replaces {deploy}: the new one "
                f"starts at {move.replicas[0]} "
                f"replica{'s' if move.replicas[0] != 1 else ''}"
            )
        if phase == 1 and move.groups and not move.autoscaled:
            lines.append(ready_line(move.groups, move.replicas[0]))
        elif phase == 1 and move.groups:
            low = move.replicas[0]
            lines += [
                *held_lines(move),
                f"    by hand (a plain apply names no count and waits for nothing): before "
                f"phase 2 wait until every group of {move.groups} nodes is ready:",
                f"    kubectl --context <{move.cluster}> -n {plan.namespace} wait "
                f"leaderworkerset/{plan.workload} --for=jsonpath='{{.status.readyReplicas}}'={low} "
                "--timeout=<the workload's load_time_budget>",
            ]
        elif phase == 1:
            lines.append(
                "    the apply returns once the new pods are ready (terraform waits for the "
                "rollout): only then phase 2"
            )
        lines += _door_lines(plan, move, phase, env)
    return lines


def _door_lines(plan: Failover, move: Move, phase: int, env: str) -> list[str]:
    """What the phase does to the front door's weighted records (none without one)."""
    if plan.door is None:
        return []
    name, ttl, dns = plan.door
    if dns == "cloud_dns":
        return _root_door_lines(plan, move, phase, env)
    if phase == 1:
        raised = (
            f"endpoint enabled at weight {SERVING_WEIGHT}"
            if dns == "traffic_manager"
            else f"record to weight {SERVING_WEIGHT}"
        )
        return [
            f"    front door {name}: {move.cluster}'s {raised} in the same apply, after the "
            "rollout (the record waits for the model server)"
        ]
    lowered = "endpoint disabled (weight 0)" if dns == "traffic_manager" else "record to weight 0"
    lines = [
        f"    front door {name}: {move.cluster}'s {lowered}"
        + (
            " in a first apply without the replacement, then the replacement in a second"
            if move.replace
            else ""
        ),
        f"    new clients go to {plan.target}; those holding the old answer reach "
        f"{move.cluster} for up to the TTL ({ttl} s), which still serves them",
    ]
    return lines


def _root_door_lines(plan: Failover, move: Move, phase: int, env: str) -> list[str]:
    """A Cloud DNS front door: its own root, applied after the serving apply it follows (it
    reads the placement's weight and address from that cluster's serving state)."""
    assert plan.door is not None
    name, ttl, _ = plan.door
    folder = door_dir(env, plan.workload)
    apply = f"      terraform -chdir={folder} init && terraform -chdir={folder} apply"
    if phase == 1:
        return [
            f"    front door {name}: then its root {folder}, {move.cluster}'s item to weight "
            f"{SERVING_WEIGHT} (read from the serving state the rollout was applied to):",
            apply,
        ]
    when = "after the first apply, before the replacement" if move.replace else "then"
    return [
        f"    front door {name}: {when}, its root {folder}, {move.cluster}'s item to weight 0:",
        apply,
        f"    new clients go to {plan.target}; those holding the old answer reach "
        f"{move.cluster} for up to the TTL ({ttl} s), which still serves them",
    ]


def door_json(plan: Failover) -> list[dict[str, object]] | None:
    """The front door's steps in the order the move takes them, or None without one."""
    if plan.door is None or plan.up is None:
        return None
    steps: list[dict[str, object]] = [
        {"phase": 1, "cluster": plan.up.cluster, "weight": SERVING_WEIGHT, "after": "rollout"}
    ]
    for m in plan.downs:
        after = "target serving" if not m.replace else "target serving, before the replacement"
        steps.append({"phase": 2, "cluster": m.cluster, "weight": 0, "after": after})
    return steps


def move_json(m: Move) -> dict[str, object]:
    """One phase of the move as JSON."""
    return {
        "cluster": m.cluster,
        "from": m.before,
        "to": m.after,
        "replicas": list(m.replicas),
        "gpus_before": m.gpus_before,
        "gpus_after": m.gpus_after,
        "replace": m.replace,
        **({"group_nodes": m.groups} if m.groups else {}),
    }


def report_json(env: str, plan: Failover) -> dict[str, object]:
    """The failover as JSON."""
    return {
        "environment": env,
        "workload": plan.workload,
        "target": plan.target,
        "refused": plan.refused,
        "reasons": list(plan.reasons),
        "phases": ([move_json(plan.up)] if plan.up else []) + [move_json(m) for m in plan.downs],
        "scale_by_hand": plan.scale_by_hand,
        "front_door": door_json(plan),
    }
