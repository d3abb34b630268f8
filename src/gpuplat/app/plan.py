"""`gpuplat plan`: render if needed, then init and plan every stage, told in the spec's terms."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import runlock
from gpuplat.addresses import Element, elements
from gpuplat.app import saved, servingplan
from gpuplat.app.door import DOOR_STAGE, DoorRoot, doors_of, left_out, planned_reading
from gpuplat.app.located import located
from gpuplat.app.render import render_project
from gpuplat.app.rolecount import RoleCount, role_counts, role_warnings
from gpuplat.app.scope import selected_clusters
from gpuplat.cost.planned import Billed, billed
from gpuplat.errors import GpuplatError, StaleError
from gpuplat.progress import Progress
from gpuplat.spec.load import EnvSpec
from gpuplat.summary import StageSummary, running_replicas, summarize
from gpuplat.terraform import TerraformBinary, TerraformError
from gpuplat.workspace import StageRoot, stages


@dataclass
class ClusterPlan:
    """The plan of one cluster in one environment: every stage's summary, or what stopped it."""

    env: str
    cluster: str
    stages: list[StageSummary] = field(default_factory=list)
    error: GpuplatError | None = None

    @property
    def has_changes(self) -> bool:
        return any(s.has_changes for s in self.stages)

    def to_json(self) -> dict[str, object]:
        return {
            "environment": self.env,
            "cluster": self.cluster,
            "has_changes": self.has_changes,
            "error": None if self.error is None else str(self.error),
            "stages": [s.to_json() for s in self.stages],
        }


def plan_envs(
    root: Path,
    envs: Sequence[str],
    *,
    binary: TerraformBinary,
    progress: Progress,
    stage: str | None = None,
    clusters: Sequence[str] = (),
    check: bool = False,
    parallel: int = 4,
    replace: Mapping[str, Sequence[str]] | None = None,
    variables: Mapping[str, Mapping[str, str]] | None = None,
) -> list[ClusterPlan]:
    """Plan each cluster of each environment (several at once, at most ``parallel``).

    ``replace`` (cluster -> resource addresses of the selected stage) plans those replaced;
    ``variables`` (cluster -> root variable -> HCL value) sets root variables of its plans.

    Clusters have their own roots and state: one cluster's failure (e.g. missing credentials
    of its cloud) never stops the others.

    Raises:
        SpecError: The spec is invalid.
        StaleError: ``check`` and the rendered tree is stale.
        GpuplatError: ``clusters`` names a cluster an environment does not have.
    """
    outcome = render_project(root, envs, check=check, load=True)
    project = outcome.project
    assert project is not None  # render_project(load=True) always loads it
    for gone in outcome.result.left:
        progress.say(progress.console.format_diagnostic(gone))
    units = [
        (
            name,
            cluster,
            outcome.cluster_hash(name, cluster),
            elements(env.spec, cluster),
            {c.name: c.region for c in env.spec.clusters},
            billed(env.spec, name, cluster),
        )
        for name, env in project.envs.items()
        for cluster in selected_clusters(env, clusters)
        if stage != DOOR_STAGE
    ]
    roles = {(env, cluster): role_counts(project.envs[env], cluster) for env, cluster, *_ in units}
    with progress.running(), ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [
            pool.submit(
                _plan_cluster,
                root,
                env,
                cluster,
                digest,
                binary,
                progress,
                stage,
                table,
                regions,
                tuple((replace or {}).get(cluster, ())),
                dict((variables or {}).get(cluster, {})),
                roles[env, cluster],
                bill,
            )
            for env, cluster, digest, table, regions, bill in units
        ]
        plans = [f.result() for f in futures]
        for name, loaded in project.envs.items():
            digest = outcome.record.envs[name].render_hash if name in outcome.record.envs else None
            for door in doors_of(root, loaded, clusters):
                # A door plan reads the serving states of its clusters: any new plan of them
                # makes a saved one meaningless.
                saved.discard(door)
                if stage in (None, DOOR_STAGE):
                    plans.append(_plan_door(door, loaded, plans, digest, binary, progress))
    for env in project.envs:
        servingplan.remember_plans(root, env, [p for p in plans if p.env == env], roles)
    return plans


def _plan_cluster(
    root: Path,
    env: str,
    cluster: str,
    digest: str | None,
    binary: TerraformBinary,
    progress: Progress,
    only: str | None,
    table: dict[str, Element],
    regions: dict[str, str],
    replace: tuple[str, ...],
    variables: dict[str, str],
    roles: dict[str, RoleCount],
    bill: Billed | None,
) -> ClusterPlan:
    out = ClusterPlan(env, cluster)
    try:
        with runlock.hold(root, f"env-{env}-{cluster}", f"cannot plan {env}/{cluster}"):
            if digest is None:
                raise StaleError(
                    f"{env}/{cluster} has no render record", hint=f"run `gpuplat plan {env}` again"
                )
            for stage in stages(root, env, cluster):
                saved.discard(stage)
            waiting: str | None = None
            for stage in stages(root, env, cluster, only):
                if waiting is not None:
                    out.stages.append(
                        StageSummary(env, stage.stage, "waits", waits_for=waiting, cluster=cluster)
                    )
                    continue
                summary = _plan_stage(
                    stage,
                    binary,
                    progress,
                    digest,
                    table,
                    regions,
                    replace,
                    variables,
                    roles if stage.stage == "serving" else None,
                    bill,
                )
                out.stages.append(summary)
                if summary.has_changes and only is None:
                    # A later stage reads this one's state: its plan is only meaningful once
                    # this one is applied.
                    waiting = stage.stage
    except GpuplatError as exc:
        out.error = exc
    return out


def _plan_door(
    door: DoorRoot,
    env: EnvSpec,
    plans: Sequence[ClusterPlan],
    digest: str | None,
    binary: TerraformBinary,
    progress: Progress,
) -> ClusterPlan:
    """Plan a workload's front-door root, or let it wait for its clusters' plans to be applied."""
    out = ClusterPlan(env.name, door.cluster)
    followed = set(next(w for w in env.spec.workloads if w.name == door.workload).clusters)
    busy = [
        f"{p.cluster}/{s.stage}"
        for p in plans
        if p.env == env.name and p.cluster in followed
        for s in p.stages
        if s.has_changes
    ]
    if busy:
        # It reads their serving states: its plan is only meaningful once they are applied.
        out.stages.append(
            StageSummary(env.name, DOOR_STAGE, "waits", waits_for=busy[0], cluster=door.cluster)
        )
        return out
    try:
        with runlock.hold(door.project, f"door-{env.name}-{door.workload}", "cannot plan"):
            if digest is None:
                raise StaleError(
                    f"{door.label} has no render record",
                    hint=f"run `gpuplat plan {env.name}` again",
                )
            summary, unread = planned_reading(
                lambda given: _plan_stage(door, binary, progress, digest, {}, {}, variables=given),
                door,
                env,
            )
            summary.warnings += left_out(door, unread)
            out.stages.append(summary)
    except GpuplatError as exc:
        out.error = exc
    return out


def _plan_stage(
    stage: StageRoot,
    binary: TerraformBinary,
    progress: Progress,
    digest: str,
    table: dict[str, Element],
    regions: dict[str, str],
    replace: tuple[str, ...] = (),
    variables: Mapping[str, str] | None = None,
    roles: Mapping[str, RoleCount] | None = None,
    bill: Billed | None = None,
) -> StageSummary:
    tracker = progress.stage(stage.label, "init")
    tf = stage.terraform(binary)
    try:
        tf.init(on_event=tracker.on_event)
        tracker.note("planning")
        stage.plan_file.parent.mkdir(parents=True, exist_ok=True)
        result = tf.plan(
            stage.plan_file, replace=replace, variables=variables, on_event=tracker.on_event
        )
        if not result.has_changes:
            running = (
                running_replicas(tf.show_plan(stage.plan_file))
                if roles and stage.plan_file.exists()
                else {}
            )
            stage.plan_file.unlink(missing_ok=True)
            summary = StageSummary(stage.env, stage.stage, "no-changes", cluster=stage.cluster)
            summary.running = running
        else:
            plan = tf.show_plan(stage.plan_file)
            summary = summarize(
                stage.env, stage.stage, plan, table, regions, cluster=stage.cluster, bill=bill
            )
        summary.warnings += role_warnings(summary.running, roles or {}, stage.env)
    except TerraformError as exc:
        tracker.done("failed")
        raise located(exc, stage) from None
    saved.save(stage, digest, str(binary.version), summary.has_changes, summary.to_json())
    tracker.done("changes planned" if summary.has_changes else "no changes")
    return summary
