"""`gpuplat destroy`, `drift` and `output`: the other things an environment's roots are run for."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import runlock
from gpuplat.addresses import elements
from gpuplat.app import saved
from gpuplat.app.apply import Confirm
from gpuplat.app.door import DOOR_STAGE, DoorRoot, doors_of
from gpuplat.app.located import located
from gpuplat.app.scope import selected_clusters
from gpuplat.cost.planned import billed
from gpuplat.errors import GpuplatError, RefusedError
from gpuplat.progress import Progress
from gpuplat.spec.load import load_project
from gpuplat.summary import StageSummary, summarize
from gpuplat.terraform import TerraformBinary, TerraformError
from gpuplat.workspace import StageRoot, rendered_stages


@dataclass
class DestroyResult:
    """Stages destroyed, in the order they went."""

    env: str
    summaries: list[StageSummary] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    """``<cluster>/<stage>`` of every stage destroyed."""
    no_state: list[str] = field(default_factory=list)
    """``<cluster>/<stage>`` of every stage with nothing applied: not planned at all."""


def destroy_env(
    root: Path,
    env: str,
    *,
    binary: TerraformBinary,
    progress: Progress,
    stage: str | None = None,
    clusters: Sequence[str] = (),
    yes: bool = False,
    confirm: Confirm | None = None,
) -> DestroyResult:
    """Plan the destruction of every stage (last first) of each cluster, confirm once, destroy.

    Raises:
        RefusedError: Not confirmed.
        LockedError: Another run holds the environment or the state.
        NotRenderedError: A root to destroy was never rendered.
        TerraformError: Terraform failed; stages destroyed before the failure are listed.
    """
    loaded = load_project(root, [env]).envs[env]
    names = selected_clusters(loaded, clusters)
    if not yes and confirm is None:
        # Nobody can confirm: refused before terraform runs (init alone may reach the state
        # backend, download providers and take minutes for nothing).
        raise RefusedError(
            f"destroying {env} needs a confirmation",
            hint="run it in a terminal and confirm, or pass --yes",
        )
    result = DestroyResult(env)
    with ExitStack() as held, progress.running():
        for cluster in names:
            held.enter_context(
                runlock.hold(root, f"env-{env}-{cluster}", f"cannot destroy {env}/{cluster}")
            )
        # Front-door roots first: a record set must not outlive the addresses it points at.
        doors = doors_of(root, loaded, clusters) if stage in (None, DOOR_STAGE) else []
        for door in doors:
            held.enter_context(
                runlock.hold(root, f"door-{env}-{door.workload}", f"cannot destroy {door.label}")
            )
        roots: list[StageRoot] = [door for door in doors if door.root.is_dir()]
        roots += [
            one
            for cluster in names
            if stage != DOOR_STAGE
            for one in reversed(rendered_stages(root, env, cluster, stage))
        ]
        planned = []
        for one in roots:
            tracker = progress.stage(one.label, "planning destroy")
            tf = one.terraform(binary)
            try:
                tf.init(on_event=tracker.on_event)
                if not tf.state_list():
                    # No state, or an empty one: nothing to destroy, and a destroy plan would
                    # cost a full refresh (seconds of CPU) to find that out.
                    result.no_state.append(f"{one.cluster}/{one.stage}")
                    tracker.done("no state (nothing applied yet)")
                    continue
                one.plan_file.parent.mkdir(parents=True, exist_ok=True)
                run = tf.plan(one.plan_file, destroy=True, on_event=tracker.on_event)
                plan = tf.show_plan(one.plan_file) if run.has_changes else None
            except TerraformError as exc:
                raise located(exc, one, loaded) from None
            summary = (
                summarize(
                    env,
                    one.stage,
                    plan,
                    {} if isinstance(one, DoorRoot) else elements(loaded.spec, one.cluster),
                    {c.name: c.region for c in loaded.spec.clusters},
                    cluster=one.cluster,
                    bill=billed(loaded.spec, env, one.cluster),
                )
                if plan
                else StageSummary(env, one.stage, "no-changes", cluster=one.cluster)
            )
            result.summaries.append(summary)
            tracker.done("nothing to destroy" if plan is None else "destroy planned")
            if plan is not None:
                planned.append(one)
        if not planned:
            return result
        count = sum(sum(s.counts.values()) for s in result.summaries)
        if not yes:
            assert confirm is not None  # refused above
            question = f"Destroy {count} resource(s) of {env}? Type '{env}' to confirm"
            if not confirm(question):
                for one in planned:
                    saved.discard(one)
                raise RefusedError(f"not confirmed: nothing of {env} was destroyed")
        for one in planned:
            tracker = progress.stage(one.label, "destroying")
            try:
                one.terraform(binary).apply(one.plan_file, on_event=tracker.on_event)
            except TerraformError as exc:
                error = located(exc, one, loaded)
                error.details = (
                    *error.details,
                    f"destroyed before the failure: {', '.join(result.destroyed) or 'nothing'}",
                )
                raise error from None
            finally:
                saved.discard(one)
            result.destroyed.append(f"{one.cluster}/{one.stage}")
            tracker.done("destroyed")
    return result


@dataclass
class DriftResult:
    """Per stage of one cluster: what changed outside Terraform."""

    env: str
    cluster: str
    drifted: dict[str, list[str]] = field(default_factory=dict)
    no_state: list[str] = field(default_factory=list)
    """Stages with nothing applied yet: nothing there can drift."""
    error: GpuplatError | None = None

    @property
    def has_drift(self) -> bool:
        return any(self.drifted.values())


def drift_envs(
    root: Path,
    envs: Sequence[str],
    *,
    binary: TerraformBinary,
    progress: Progress,
    stage: str | None = None,
    clusters: Sequence[str] = (),
    parallel: int = 4,
) -> list[DriftResult]:
    """A refresh-only plan of every stage of every cluster; nothing is saved or applied.

    Raises:
        GpuplatError: ``clusters`` names a cluster an environment does not have.
    """
    project = load_project(root, envs)
    units = [
        (name, cluster)
        for name, env in project.envs.items()
        for cluster in selected_clusters(env, clusters)
    ]

    def one_cluster(env: str, cluster: str) -> DriftResult:
        out = DriftResult(env, cluster)
        try:
            with runlock.hold(root, f"env-{env}-{cluster}", f"cannot check {env}/{cluster}"):
                for one in rendered_stages(root, env, cluster, stage):
                    tracker = progress.stage(one.label, "refreshing")
                    tf = one.terraform(binary)
                    try:
                        tf.init(on_event=tracker.on_event)
                        if not tf.state_list():
                            # Never applied: a refresh would only fail on what later stages
                            # read from this one's (absent) outputs.
                            out.no_state.append(one.stage)
                            tracker.done("no state (nothing applied yet)")
                            continue
                        run = tf.plan(refresh_only=True, on_event=tracker.on_event)
                    except TerraformError as exc:
                        raise located(exc, one, project.envs[env]) from None
                    out.drifted[one.stage] = [f"{d.resource.addr} ({d.action})" for d in run.drift]
                    tracker.done(f"{len(run.drift)} drifted" if run.drift else "no drift")
        except GpuplatError as exc:
            out.error = exc
        return out

    with progress.running(), ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [pool.submit(one_cluster, env, cluster) for env, cluster in units]
        return [f.result() for f in futures]


def outputs(
    root: Path,
    env: str,
    *,
    binary: TerraformBinary,
    stage: str | None = None,
    clusters: Sequence[str] = (),
    show_sensitive: bool = False,
) -> dict[str, dict[str, dict[str, object]]]:
    """Every stage's outputs, cluster by cluster (sensitive values redacted unless asked for).

    A stage with nothing applied yet has no state and so no outputs: it maps to ``{}``.

    Raises:
        NotRenderedError: The environment was never rendered.
        TerraformError: Terraform failed.
    """
    loaded = load_project(root, [env]).envs[env]
    out: dict[str, dict[str, dict[str, object]]] = {}
    for cluster in selected_clusters(loaded, clusters):
        mine: dict[str, dict[str, object]] = {}
        for one in rendered_stages(root, env, cluster, stage):
            tf = one.terraform(binary)
            try:
                tf.init()
                # No state yet: `terraform output -json` answers `{}` (local and S3 backends).
                values = tf.outputs()
            except TerraformError as exc:
                raise located(exc, one) from None
            mine[one.stage] = {
                name: ("(sensitive)" if v.sensitive and not show_sensitive else v.value)
                for name, v in values.items()
            }
        out[cluster] = mine
    return out
