"""`gpuplat apply`: apply an environment's saved plans, and only those, after every refusal check."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import runlock
from gpuplat.app import saved
from gpuplat.app.door import doors_of
from gpuplat.app.located import env_render_hash, located, render_hash
from gpuplat.app.scope import selected_clusters
from gpuplat.errors import RefusedError
from gpuplat.progress import Progress
from gpuplat.spec.load import EnvSpec, load_project
from gpuplat.summary import StageSummary
from gpuplat.terraform import TerraformBinary, TerraformError
from gpuplat.workspace import StageRoot, stages

Confirm = Callable[[str], bool]


@dataclass
class ApplyResult:
    """What an apply did."""

    env: str
    applied: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


def _summary(meta: saved.SavedPlan) -> StageSummary:
    """A stage summary rebuilt from the JSON saved beside its plan."""
    data = meta.summary
    out = StageSummary(meta.env, meta.stage, str(data.get("status", "planned")))
    counts = data.get("counts")
    out.counts = {k: int(v) for k, v in counts.items()} if isinstance(counts, dict) else {}
    outputs = data.get("outputs")
    out.outputs = [str(o) for o in outputs] if isinstance(outputs, list) else []
    return out


@dataclass(frozen=True)
class Protected:
    """A destroy or replace of something that cannot simply be rebuilt."""

    name: str
    """The spec element's name: what --allow-destroy takes."""
    element: str
    what: str
    address: str
    verb: str

    def line(self, stage: str) -> str:
        return f"{self.verb}s {self.what} {self.address} of {self.element} {self.name} ({stage})"


def _protected(meta: saved.SavedPlan) -> list[Protected]:
    """Every protected destroy or replace in a saved plan."""
    from gpuplat.addresses import PROTECTED_TYPES, resource_type

    out = []
    elements = meta.summary.get("elements")
    for element in elements if isinstance(elements, list) else []:
        if not isinstance(element, dict):
            continue
        for resource in element.get("resources", []):
            address = str(resource.get("address", ""))
            what = PROTECTED_TYPES.get(resource_type(address))
            verb = str(resource.get("action"))
            if what is not None and verb in ("destroy", "replace"):
                name, kind = str(element.get("name")), str(element.get("kind"))
                out.append(Protected(name, kind, what, address, verb))
    return out


def apply_env(
    root: Path,
    env: str,
    *,
    binary: TerraformBinary,
    progress: Progress,
    clusters: Sequence[str] = (),
    allow_destroy: Sequence[str] = (),
    yes: bool = False,
    confirm: Confirm | None = None,
) -> ApplyResult:
    """Apply the saved plans of ``env``, cluster by cluster, each in stage order.

    Every refusal is checked for every selected cluster before anything is applied.

    Raises:
        RefusedError: No plan, a stale plan, an unallowed destroy/replace, or no confirmation.
        LockedError: Another gpuplat run holds a cluster of the environment, or Terraform's
            state lock.
        TerraformError: Terraform failed; the message says which stages were applied.
    """
    loaded = load_project(root, [env]).envs[env]
    names = selected_clusters(loaded, clusters)
    doors = doors_of(root, loaded, clusters)
    with ExitStack() as held:
        for cluster in names:
            held.enter_context(
                runlock.hold(root, f"env-{env}-{cluster}", f"cannot apply {env}/{cluster}")
            )
        for door in doors:
            held.enter_context(
                runlock.hold(root, f"door-{env}-{door.workload}", f"cannot apply {door.label}")
            )
        plans: list[tuple[StageRoot, saved.SavedPlan | None]] = []
        current: dict[str, str | None] = {}
        for cluster in names:
            current[cluster] = render_hash(root, env, cluster)
            plans += [(stage, saved.load(stage)) for stage in stages(root, env, cluster)]
        # Front-door roots last: they read the serving states of their clusters.
        for door in doors:
            current[door.cluster] = env_render_hash(root, env)
            plans.append((door, saved.load(door)))
        found = [(stage, meta) for stage, meta in plans if meta is not None]
        if not found:
            raise RefusedError(
                f"no saved plan for {env}",
                hint=f"run `gpuplat plan {env}` first; apply only ever applies a reviewed plan",
            )
        for stage, meta in found:
            reason = saved.stale_reason(meta, stage, current[stage.cluster], str(binary.version))
            if reason is not None:
                raise RefusedError(
                    f"the saved plan of {stage.label} is stale: {reason}",
                    hint=f"run `gpuplat plan {env}` again and review the new plan",
                )
        _check_destroys(env, found, allow_destroy)
        to_apply = [(s, m) for s, m in found if m.has_changes]
        result = ApplyResult(env, unchanged=[_name(s) for s, m in found if not m.has_changes])
        planned = {s.label for s, _ in found}
        result.waiting = [_name(s) for s, _ in plans if s.label not in planned]
        if not to_apply:
            return result
        _confirm(loaded, to_apply, yes, confirm)
        with progress.running():
            for stage, _meta in to_apply:
                _apply_stage(stage, binary, progress, loaded, result)
        return result


def _name(stage: StageRoot) -> str:
    """How results name a stage: ``<cluster>/<stage>``."""
    return f"{stage.cluster}/{stage.stage}"


def _check_destroys(
    env: str, found: list[tuple[StageRoot, saved.SavedPlan]], allow: Sequence[str]
) -> None:
    blocked: list[str] = []
    names: set[str] = set()
    for stage, meta in found:
        for item in _protected(meta):
            if item.name not in allow and "*" not in allow:
                blocked.append(item.line(_name(stage)))
                names.add(item.name)
    if blocked:
        raise RefusedError(
            f"the plan of {env} destroys or replaces what cannot simply be rebuilt",
            hint="if that is intended, apply with "
            + " ".join(f"--allow-destroy {n}" for n in sorted(names))
            + "; otherwise change the spec so the plan keeps them",
            details=tuple(sorted(set(blocked))),
        )


def _confirm(
    env: EnvSpec,
    to_apply: list[tuple[StageRoot, saved.SavedPlan]],
    yes: bool,
    confirm: Confirm | None,
) -> None:
    if not env.protected or yes:
        return
    total = sum(sum(_summary(m).counts.values()) for _, m in to_apply)
    question = f"{env.name} is a protected environment. Apply {total} change(s)? Type '{env.name}' to confirm"
    if confirm is None:
        raise RefusedError(
            f"{env.name} is protected: applying needs a confirmation",
            hint="run it in a terminal and confirm, or pass --yes (e.g. in a reviewed CI job)",
        )
    if not confirm(question):
        raise RefusedError(f"not confirmed: nothing was applied to {env.name}")


def _apply_stage(
    stage: StageRoot, binary: TerraformBinary, progress: Progress, env: EnvSpec, result: ApplyResult
) -> None:
    tracker = progress.stage(stage.label, "applying")
    tf = stage.terraform(binary)
    try:
        tf.init(on_event=tracker.on_event)
        tf.apply(stage.plan_file, on_event=tracker.on_event)
    except TerraformError as exc:
        tracker.done("failed")
        # Terraform refuses to reuse a partly applied plan; the state holds what was done.
        saved.discard(stage)
        error = located(exc, stage, env)
        done = ", ".join(result.applied) or "nothing"
        error.details = (
            *error.details,
            f"applied before the failure: {done}; {_name(stage)} is partly applied (its state "
            "records what was done)",
        )
        error.hint = f"fix the cause, then run `gpuplat plan {stage.env}` and apply again"
        raise error from None
    saved.discard(stage)
    result.applied.append(_name(stage))
    tracker.done("applied")
