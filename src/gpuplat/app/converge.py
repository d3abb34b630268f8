"""`gpuplat converge`: bring every cluster of a workload to its role's count, in the safe order.

A ``--target-only`` failover leaves its sources serving (recorded in ``envs/<env>/moves.json``,
app/pending.py), and terraform leaves a running Deployment's count alone, so applying the
spec alone plans "no changes". Converge plans the serving root of every cluster of the
workload, reads the count each runs from the refreshed state, and replaces a Deployment whose
count its role does not hold (a source of the pending move: above its role's minimum): the new
one starts at the role's count. It applies the serving clusters first (terraform waits for their
rollout), then the others, and forgets the pending move. An autoscaled target (KEDA starts at
0) is first held at the count the sources serve, as the failover holds it, and handed back to
its autoscaler once they are down. Run again, it changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.app import pending
from gpuplat.app.apply import apply_env
from gpuplat.app.door import follow
from gpuplat.app.failover import load_env
from gpuplat.app.groupmove import refuse_group_move
from gpuplat.app.hold import floor_variables, running_count, target_hold
from gpuplat.app.lowering import has_front_door, take_down
from gpuplat.app.plan import ClusterPlan, plan_envs
from gpuplat.app.rolecount import deployment_address
from gpuplat.errors import GpuplatError, RefusedError
from gpuplat.progress import Progress
from gpuplat.spec.roles import bounds
from gpuplat.terraform import TerraformBinary
from gpuplat.workload.serving import serving_plans

Confirm = Callable[[str], bool]


@dataclass
class ConvergeResult:
    """What converge found and did, cluster by cluster in the order it applied them."""

    env: str
    workload: str
    move: pending.PendingMove | None
    running: dict[str, int] = field(default_factory=dict)
    """Cluster -> replicas its Deployment ran before (absent: no Deployment yet)."""
    roles: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    """Cluster -> its role and the count it is brought to (low, high)."""
    replaced: list[str] = field(default_factory=list)
    plans: list[ClusterPlan] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    floor: int = 0
    """Replicas an autoscaled target was held at while the sources went down (0: none)."""
    handed_back: bool = False
    doors: list[str] = field(default_factory=list)
    """Front-door roots of their own (Cloud DNS) applied after the serving roots they follow."""

    @property
    def changed(self) -> bool:
        return bool(self.applied or self.doors)


def converge(
    root: Path,
    env: str,
    workload: str,
    *,
    binary: TerraformBinary,
    progress: Progress,
    yes: bool = False,
    confirm: Confirm | None = None,
) -> ConvergeResult:
    """Bring ``workload``'s clusters in ``env`` to their roles' counts and forget its pending move.

    Raises:
        SpecError: The spec or the overlay has errors.
        RefusedError: Not confirmed.
        GpuplatError: No such workload, or a cluster cannot be planned or applied (the pending
            move stays recorded: run converge again once it can).
    """
    spec_env = load_env(root, env)
    found = next((w for w in spec_env.spec.workloads if w.name == workload), None)
    if found is None:
        known = ", ".join(w.name for w in spec_env.spec.workloads)
        raise GpuplatError(f'no workload "{workload}" in {env}', f"workloads: {known}")
    refuse_group_move(spec_env, workload, "converge")
    result = ConvergeResult(env, workload, pending.read(root, env).get(workload))
    sources = set(result.move.sources) if result.move else set()
    # The serving clusters first: never a moment when none serves.
    order = sorted(found.clusters, key=lambda c: bounds(found, c).role != "active")
    addresses = {}
    for cluster in order:
        plan = next(p for p in serving_plans(spec_env, cluster) if p.name == workload)
        addresses[cluster] = deployment_address(workload, cluster, plan.dra)
        role = bounds(found, cluster)
        result.roles[cluster] = (role.role, role.low, role.high)
    first = _plan(root, env, order, binary, progress, {})
    for cluster in order:
        count = running_count(first[cluster], addresses[cluster])
        exists = any(addresses[cluster] in s.running for s in first[cluster].stages)
        if exists:
            result.running[cluster] = count
        _, low, high = result.roles[cluster]
        # A source of the move goes to its role's count, not only into its bounds (KEDA's
        # cold bounds are 0..max, and a source left serving would keep serving).
        if exists and (not low <= count <= high or (cluster in sources and count > low)):
            result.replaced.append(cluster)
    plans = dict(first)
    if result.replaced:
        # Only the clusters whose Deployment is replaced are planned again; the others' first
        # plans stand (nothing was applied in between).
        plans.update(
            _plan(
                root,
                env,
                [c for c in order if c in result.replaced],
                binary,
                progress,
                {c: [addresses[c]] for c in result.replaced},
            )
        )
    target = result.move.target if result.move is not None else None
    if target in plans and target not in result.replaced:
        # An autoscaled target (KEDA starts at 0) serves the sources' count before they go
        # down, as the failover does, and stays held there (a --target-only move left it held:
        # a plan without the floor would lower its minimum first); it gets its count back at
        # the end. Its Deployment is replaced only when it runs fewer.
        assert target is not None and result.move is not None
        left = [s for s in result.move.sources if s in plans]
        hold = target_hold(spec_env, workload, target, plans, left)
        result.floor = hold.count
        if hold.count:
            plans[target] = _plan(
                root,
                env,
                [target],
                binary,
                progress,
                {target: list(hold.replace)},
                floor_variables(workload, target, result.floor),
            )[target]
    result.plans = [plans[c] for c in order]
    if any(p.has_changes for p in result.plans):
        _confirm(result, yes, confirm)
    door = has_front_door(spec_env, workload)
    for cluster in order:
        if door and cluster in result.replaced and result.roles[cluster][0] != "active":
            # Out of the front door (weight 0) before its replicas go.
            doors: list[str] = []
            applied = take_down(
                root,
                env,
                cluster,
                addresses[cluster],
                binary=binary,
                progress=progress,
                spec=spec_env,
                doors=doors,
            )
        else:
            done = apply_env(
                root, env, binary=binary, progress=progress, clusters=[cluster], yes=True
            )
            applied = bool(done.applied)
            doors = follow(root, spec_env, [cluster], binary=binary, progress=progress)
        result.doors += [f"{d} after {cluster}" for d in doors]
        (result.applied if applied else result.unchanged).append(cluster)
    if result.floor and target is not None:
        _plan(root, env, [target], binary, progress, {})
        apply_env(root, env, binary=binary, progress=progress, clusters=[target], yes=True)
        result.handed_back = True
    if result.move is not None:
        pending.clear(root, env, workload)
    return result


def _plan(
    root: Path,
    env: str,
    order: list[str],
    binary: TerraformBinary,
    progress: Progress,
    replace: dict[str, list[str]],
    variables: dict[str, dict[str, str]] | None = None,
) -> dict[str, ClusterPlan]:
    plans = plan_envs(
        root,
        [env],
        binary=binary,
        progress=progress,
        stage="serving",
        clusters=order,
        replace=replace,
        variables=variables,
    )
    by_cluster = {p.cluster: p for p in plans}
    for cluster in order:
        error = by_cluster[cluster].error
        if error is not None:
            raise GpuplatError(
                f"{cluster} could not be planned: {error}",
                hint="nothing was applied; run `gpuplat converge` again once it can be planned",
                exit_code=error.exit_code,
                details=tuple(error.details),
            )
    return by_cluster


def _confirm(result: ConvergeResult, yes: bool, confirm: Confirm | None) -> None:
    if yes:
        return
    if confirm is None:
        raise RefusedError(
            "converge applies after a confirmation",
            hint="run it in a terminal and confirm, or pass --yes",
        )
    order = " then ".join(p.cluster for p in result.plans)
    if not confirm(f"Apply {result.workload}'s roles in {result.env} ({order})? Type 'yes'"):
        raise RefusedError(f"not confirmed: nothing was changed in {result.env}")


def result_lines(result: ConvergeResult) -> list[str]:
    """What converge did, as text."""
    lines = [f"converge {result.workload} ({result.env}) to its roles, serving clusters first:"]
    if result.move is not None:
        lines.append(
            f"  pending move to {result.move.target}: {', '.join(result.move.sources)} left "
            f"serving, now {result.move.source_role}"
        )
    for cluster, (role, low, high) in result.roles.items():
        count = result.running.get(cluster)
        runs = "no Deployment yet" if count is None else f"runs {count}"
        how = (
            " (Deployment replaced: starts at its role's count)"
            if cluster in result.replaced
            else ""
        )
        lines.append(f"  {cluster}: {role} holds {low}..{high}, {runs}{how}")
    for plan in result.plans:
        lines.append(f"Plan for {plan.env}, cluster {plan.cluster}:")
        for summary in plan.stages:
            lines.extend(summary.lines())
    if result.floor and result.move is not None:
        lines.append(
            f"  {result.move.target} is held at {result.floor} replica(s), the count the sources "
            "serve now; its autoscaler gets the count back once they are down"
        )
    for cluster in result.applied:
        lines.append(f"applied: {cluster}")
    for cluster in result.unchanged:
        lines.append(f"{cluster} had nothing to apply")
    lines += [f"front door applied: {door}" for door in result.doors]
    if result.handed_back and result.move is not None:
        lines.append(f"applied: {result.move.target} handed back to its autoscaler")
    if result.move is not None:
        lines.append(f"the pending move of {result.workload} is done: removed from its record")
    return lines


def result_json(result: ConvergeResult) -> dict[str, object]:
    """What converge did, as JSON."""
    move = result.move
    return {
        "environment": result.env,
        "workload": result.workload,
        "pending": None if move is None else pending_json(result.env, move),
        "roles": {c: {"role": r, "low": lo, "high": hi} for c, (r, lo, hi) in result.roles.items()},
        "running": dict(result.running),
        "replaced": list(result.replaced),
        "plans": [p.to_json() for p in result.plans],
        "applied": list(result.applied),
        "unchanged": list(result.unchanged),
        "changed": result.changed,
        "floor": result.floor,
        "handed_back": result.handed_back,
        "front_doors": list(result.doors),
    }


def preview(root: Path, env: str, move: pending.PendingMove) -> dict[str, object]:
    """What ``gpuplat converge`` would do to finish ``move``, from the spec and the record only
    (no terraform runs: the counts it acts on are read when it runs).

    Raises:
        SpecError: The spec or the overlay has errors.
        GpuplatError: The workload is no longer in the spec.
    """
    spec_env = load_env(root, env)
    found = next((w for w in spec_env.spec.workloads if w.name == move.workload), None)
    if found is None:
        raise GpuplatError(f'no workload "{move.workload}" in {env}')
    order = sorted(found.clusters, key=lambda c: bounds(found, c).role != "active")
    steps: list[dict[str, object]] = []
    for cluster in order:
        role = bounds(found, cluster)
        step: dict[str, object] = {
            "cluster": cluster,
            "role": role.role,
            "replicas": [role.low, role.high],
        }
        if cluster == move.target and move.source_replicas:
            step["does"] = (
                f"held at {move.source_replicas} replica(s) (what the sources served) until "
                "they are down"
            )
        elif cluster in move.sources:
            step["does"] = f"Deployment replaced: starts at {role.low} replica(s)"
        else:
            step["does"] = "planned and applied as the spec says"
        steps.append(step)
    if move.source_replicas:
        steps.append({"cluster": move.target, "does": "handed back to its autoscaler"})
    return {
        "command": f"gpuplat converge {move.workload} -e {env}",
        "steps": steps,
        "note": "converge reads the counts each cluster runs when it runs; a cluster it cannot "
        "plan stops it before anything is applied",
    }


def pending_json(env: str, move: pending.PendingMove) -> dict[str, object]:
    """A pending move as JSON."""
    return {
        "target": move.target,
        "sources": list(move.sources),
        "source_role": move.source_role,
        "source_replicas": move.source_replicas,
        "record": f"envs/{env}/{pending.FILE}",
    }
