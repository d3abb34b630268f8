"""Carrying out a failover: the spec change, the plans of both sides, the applies in safe order.

1. The roles the failover ends with (the target ``active``, the sources ``cold`` or ``warm``)
   are written into the environment's overlay and the environment is rendered.
2. The serving root of every cluster involved is planned: the target's and the sources'. A
   target that ran no replicas gets its Deployment replaced (``-replace``), because the
   Deployment leaves its replica count to the autoscaler and an HPA never scales up from 0:
   the new Deployment starts at the active minimum, and terraform waits for its rollout.
3. After one confirmation, the target is applied; its apply returns only once the new pods are
   ready (model-server waits for the rollout, or for every group of a multi-host workload:
   app/groupmove.py says what it still refuses). Only then are the sources applied.

Until the first apply nothing has changed: a plan that fails, or a confirmation not given,
puts the overlay back and renders again. A source that cannot be planned (its cloud is down,
or its credentials are not on this machine) stops the failover unless ``target_only``: then
the target is brought up and the sources are left serving, to be applied once reachable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.app import pending, saved, servingplan
from gpuplat.app.apply import apply_env
from gpuplat.app.door import follow
from gpuplat.app.failover import (
    load_env,
    move_json,
    move_line,
    plan_then_apply,
    report_lines,
)
from gpuplat.app.groupmove import held_result, refuse_group_move
from gpuplat.app.hold import deployment, floor_variables, target_hold
from gpuplat.app.lowering import has_front_door, take_down
from gpuplat.app.overlay import Before, set_roles
from gpuplat.app.plan import ClusterPlan, plan_envs
from gpuplat.app.render import render_project
from gpuplat.errors import GpuplatError, RefusedError
from gpuplat.progress import Progress
from gpuplat.render.naming import door_folder
from gpuplat.spec.failover import Failover, plan_failover
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Role
from gpuplat.spec.roles import role_of
from gpuplat.terraform import TerraformBinary
from gpuplat.workspace import stages

Confirm = Callable[[str], bool]


@dataclass
class MoveResult:
    """What a failover did: its check, the plans, and the clusters applied in order."""

    env: str
    check: Failover
    overlay: str = ""
    plans: list[ClusterPlan] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    """Sources left serving (``target_only``): apply them once they can be planned."""
    unchanged: list[str] = field(default_factory=list)
    """Clusters whose plan had nothing to apply."""
    floor: int = 0
    """Replicas an autoscaled target was brought up to (the sources' serving count), 0: none."""
    handed_back: bool = False
    """The target's count was handed back to its autoscaler after the sources went down."""
    doors: list[str] = field(default_factory=list)
    """Front-door roots of their own (Cloud DNS) applied, in order, after the serving roots
    they follow: ``<door> after <cluster>``."""


def carry_out(
    root: Path,
    env: str,
    workload: str,
    to: str,
    source_role: Role,
    *,
    binary: TerraformBinary,
    progress: Progress,
    yes: bool = False,
    confirm: Confirm | None = None,
    target_only: bool = False,
) -> MoveResult:
    """Fail ``workload`` over to cluster ``to`` in ``env``: change, plan, confirm, apply.

    Raises:
        SpecError: The spec or the overlay has errors.
        RefusedError: Not confirmed, or a source cannot be planned (without ``target_only``).
        GpuplatError: The target cannot be planned or applied, or the overlay cannot be written.
    """
    spec_env = load_env(root, env)
    refuse_group_move(spec_env, workload, "failover", to)
    check = plan_failover(spec_env, workload, to, source_role=source_role)
    result = MoveResult(env, check)
    if check.refused:
        return result
    result.overlay = spec_env.overlay
    sources = [m.cluster for m in check.downs]
    roles: dict[str, str] = {to: "active", **dict.fromkeys(sources, source_role)}
    before = set_roles(root / spec_env.overlay, workload, roles)
    try:
        changed = _check_roles(root, env, workload, roles)
        result.plans = plan_envs(
            root,
            [env],
            binary=binary,
            progress=progress,
            stage="serving",
            clusters=[to, *sources],
            replace={
                m.cluster: [deployment(changed, workload, m.cluster)]
                for m in (check.up, *check.downs)
                if m is not None and m.replace
            },
        )
        by_cluster = {p.cluster: p for p in result.plans}
        # In the order they are applied: the target, then the sources.
        result.plans = [by_cluster[c] for c in (to, *sources)]
        _planned_or_raise(by_cluster[to], to)
        unplanned = [c for c in sources if by_cluster[c].error is not None]
        if unplanned and not target_only:
            first = by_cluster[unplanned[0]].error
            raise RefusedError(
                f"the source {unplanned[0]} could not be planned: {first}",
                hint="fix that and run the failover again; or, if that cloud is down, pass "
                "--target-only to bring the target up and leave the source to later",
                details=tuple(first.details) if first is not None else (),
            )
        result.pending = unplanned
        # A source whose cloud is down cannot be read: its last known count stands in.
        known = {c: servingplan.last_known(root, env, workload, c) for c in unplanned}
        hold = target_hold(
            changed, workload, to, by_cluster, [c for c in sources if c not in unplanned], known
        )
        # A target that already runs the held count is left to its autoscaler.
        floor = hold.count if hold.short else 0
        if floor:
            # Up to the source's serving count, waited for, before any source goes down.
            target = plan_envs(
                root,
                [env],
                binary=binary,
                progress=progress,
                stage="serving",
                clusters=[to],
                replace={to: list(hold.replace)},
                variables=floor_variables(workload, to, floor),
            )[0]
            _planned_or_raise(target, to)
            result.plans[0] = target
            result.floor = floor
        _confirm(result, yes, confirm)
    except BaseException:
        _put_back(root, env, before, [to, *sources])
        raise
    # Behind a front door, a source whose Deployment is replaced leaves it first.
    lowered = (
        {m.cluster for m in check.downs if m.replace}
        if has_front_door(changed, workload)
        else set()
    )
    for cluster in [to, *(s for s in sources if s not in result.pending)]:
        try:
            if cluster in lowered:
                doors: list[str] = []
                applied = take_down(
                    root,
                    env,
                    cluster,
                    deployment(changed, workload, cluster),
                    binary=binary,
                    progress=progress,
                    spec=changed,
                    doors=doors,
                )
                result.doors += [f"{d} after {cluster}" for d in doors]
            else:
                done = apply_env(
                    root, env, binary=binary, progress=progress, clusters=[cluster], yes=True
                )
                applied = bool(done.applied)
                doors = follow(root, changed, [cluster], binary=binary, progress=progress)
                result.doors += [f"{d} after {cluster}" for d in doors]
        except GpuplatError as exc:
            raise _stopped(exc, result, cluster) from None
        (result.applied if applied else result.unchanged).append(cluster)
    if result.floor and not result.pending:
        _hand_back(root, env, to, binary, progress, result)
    if result.pending:
        # Nothing in the spec or the state says the sources still serve: the record does. The
        # target stays held at the floor until converge has taken them down.
        move = pending.PendingMove(workload, to, tuple(result.pending), source_role, result.floor)
        pending.record(root, env, move)
    else:
        pending.clear(root, env, workload)
    return result


def _planned_or_raise(plan: ClusterPlan, cluster: str) -> None:
    if plan.error is not None:
        raise GpuplatError(
            f"the target {cluster} could not be planned: {plan.error}",
            hint=plan.error.hint,
            exit_code=plan.error.exit_code,  # terraform failed: 6, as `plan` says it
            details=tuple(plan.error.details),
        )


def _hand_back(
    root: Path, env: str, to: str, binary: TerraformBinary, progress: Progress, result: MoveResult
) -> None:
    """The target's count back to its autoscaler: its root planned and applied without the
    failover's floor (the floor leaves the ScaledObject or HPA minimum; the Deployment keeps
    its replicas, which the autoscaler owns from now on)."""
    plan = plan_envs(root, [env], binary=binary, progress=progress, stage="serving", clusters=[to])[
        0
    ]
    try:
        if plan.error is not None:
            raise plan.error
        apply_env(root, env, binary=binary, progress=progress, clusters=[to], yes=True)
    except GpuplatError as exc:
        exc.details = (
            *exc.details,
            f"the move is done ({to} serves); only handing its count back to the autoscaler "
            "failed: its minimum stays at the source's count until then",
        )
        exc.hint = f"{plan_then_apply(env, to)}"
        raise
    result.handed_back = True


def _stopped(exc: GpuplatError, result: MoveResult, cluster: str) -> GpuplatError:
    """An apply failed mid-failover: say who serves, and how to go on."""
    env, to = result.env, result.check.target
    sources = [m.cluster for m in result.check.downs]
    door = f"{env}/{door_folder(result.check.workload)}"
    if exc.message.startswith(f"terraform failed in {door}:"):
        # The serving apply of the cluster went through; the front door did not follow it.
        exc.details = (
            *exc.details,
            f"{cluster}'s serving root was applied; the front-door root {door} that follows it "
            f"failed. The overlay ({result.overlay}) already holds the roles of the whole failover",
        )
        exc.hint = (
            f"fix the cause, then `gpuplat plan {env} --stage door` and `gpuplat apply {env}`"
            + ("" if cluster != to else "; then `gpuplat failover` again to take the sources down")
        )
        return exc
    if cluster == to:
        where = f"phase 1 failed: {', '.join(sources)} still serve(s); {to} may be partly applied"
    else:
        where = f"phase 2 failed on {cluster}: {to} serves; {cluster} may be partly applied"
    exc.details = (
        *exc.details,
        f"{where}. The overlay ({result.overlay}) already holds the roles of the whole failover",
    )
    exc.hint = (
        f"fix the cause, then `gpuplat plan {env} --cluster {cluster} --stage serving` and "
        f"`gpuplat apply {env} --cluster {cluster}`"
        + ("; then the same for each source" if cluster == to else "")
    )
    return exc


def _check_roles(root: Path, env: str, workload: str, roles: dict[str, str]) -> EnvSpec:
    """The environment as the changed overlay makes it, once its roles are checked to be what
    the spec now says (the base spec cannot override them)."""
    loaded = load_env(root, env)
    found = next(w for w in loaded.spec.workloads if w.name == workload)
    wrong = [c for c, role in roles.items() if role_of(found, c) != role]
    if wrong:
        raise GpuplatError(f"the roles written for {', '.join(wrong)} do not take effect")
    return loaded


def _confirm(result: MoveResult, yes: bool, confirm: Confirm | None) -> None:
    if yes:
        return
    order = " then ".join([result.check.target, *(m.cluster for m in result.check.downs)])
    question = (
        f"Apply the failover of {result.check.workload} in {result.env} ({order})? Type 'yes'"
    )
    if confirm is None:
        raise RefusedError(
            "a failover applies after a confirmation",
            hint="run it in a terminal and confirm, or pass --yes (e.g. from a reviewed runbook)",
        )
    if not confirm(question):
        raise RefusedError(f"not confirmed: nothing was changed in {result.env}")


def _put_back(root: Path, env: str, before: Before, clusters: list[str]) -> None:
    """Before anything was applied: the overlay and the rendered tree as they were."""
    before.restore()
    for cluster in clusters:
        for stage in stages(root, env, cluster, "serving"):
            saved.discard(stage)
    render_project(root, [env])


def result_lines(result: MoveResult) -> list[str]:
    """The failover as text: refused with the reasons, or the order, the plans and the applies."""
    check = result.check
    if check.refused:
        return report_lines(result.env, check)
    assert check.up is not None
    lines = [f"failover {check.workload} to {check.target} ({result.env}), never both down:"]
    lines += [move_line(1, check.up), *(move_line(2, m) for m in check.downs)]
    roles = ", ".join(f"{m.cluster} {m.after}" for m in (check.up, *check.downs))
    lines.append(f"  {result.overlay}: workloads[{check.workload}].placements: {roles}")
    for plan in result.plans:
        lines.append(f"Plan for {plan.env}, cluster {plan.cluster}:")
        if plan.error is not None:
            lines.append(f"  serving: could not be planned: {plan.error}")
        for summary in plan.stages:
            lines.extend(summary.lines())
    for cluster in [check.target, *(m.cluster for m in check.downs)]:
        phase = 1 if cluster == check.target else 2
        if cluster in result.unchanged:
            lines.append(f"phase {phase}: {cluster} had nothing to apply")
        elif cluster in result.applied:
            waited = "groups ready: terraform waited for every group" if check.up.groups else ""
            waited = waited or "pods ready: terraform waited for the rollout"
            ready = f" (its {waited})" if phase == 1 else ""
            lines.append(f"phase {phase} applied: {cluster}{ready}")
    if result.floor:
        seen = "was last seen serving" if result.pending else "serves now"
        lines.insert(
            2,
            held_result(check.up, result.floor, seen)
            if check.up.groups
            else f"    {check.target} starts at {result.floor} replica(s), the count the source "
            f"{seen}; its autoscaler gets the count back once the source is down",
        )
    lines += [f"front door applied: {door}" for door in result.doors]
    if result.handed_back:
        lines.append(f"phase 3 applied: {check.target} handed back to its autoscaler")
    for cluster in result.pending:
        lines.append(
            f"phase 2 pending: {cluster} still serves (recorded in envs/{result.env}/moves.json)"
        )
    if result.pending:
        lines.append(
            f"  once it can be planned, one command finishes the move: "
            f"gpuplat converge {check.workload} -e {result.env}"
        )
    return lines


def result_json(result: MoveResult) -> dict[str, object]:
    """The failover as JSON."""
    check = result.check
    return {
        "environment": result.env,
        "workload": check.workload,
        "target": check.target,
        "refused": check.refused,
        "reasons": list(check.reasons),
        "phases": ([move_json(check.up)] if check.up else []) + [move_json(m) for m in check.downs],
        "overlay": result.overlay,
        "plans": [p.to_json() for p in result.plans],
        "applied": list(result.applied),
        "unchanged": list(result.unchanged),
        "floor": result.floor,
        "handed_back": result.handed_back,
        "pending": list(result.pending),
        "front_doors": list(result.doors),
    }
