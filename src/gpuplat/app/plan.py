"""`gpuplat plan`: render if needed, then init and plan every stage, told in the spec's terms."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import runlock
from gpuplat.addresses import Element, elements
from gpuplat.app import saved
from gpuplat.app.located import located, render_hash
from gpuplat.app.render import render_project
from gpuplat.errors import GpuplatError, StaleError
from gpuplat.progress import Progress
from gpuplat.spec.load import load_project
from gpuplat.summary import StageSummary, summarize
from gpuplat.terraform import TerraformBinary, TerraformError
from gpuplat.workspace import StageRoot, stages


@dataclass
class EnvPlan:
    """The plan of one environment: every stage's summary, or the error that stopped it."""

    env: str
    stages: list[StageSummary] = field(default_factory=list)
    error: GpuplatError | None = None

    @property
    def has_changes(self) -> bool:
        return any(s.has_changes for s in self.stages)

    def to_json(self) -> dict[str, object]:
        return {
            "environment": self.env,
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
    check: bool = False,
    parallel: int = 4,
) -> list[EnvPlan]:
    """Plan each environment (several at once, at most ``parallel``).

    Raises:
        SpecError: The spec is invalid.
        StaleError: ``check`` and the rendered tree is stale.
    """
    render_project(root, envs, check=check)
    project = load_project(root, envs)
    with progress.running(), ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [
            pool.submit(
                _plan_env,
                root,
                name,
                binary,
                progress,
                stage,
                elements(env.spec),
                {c.name: c.region for c in env.spec.clusters},
            )
            for name, env in project.envs.items()
        ]
        return [f.result() for f in futures]


def _plan_env(
    root: Path,
    env: str,
    binary: TerraformBinary,
    progress: Progress,
    only: str | None,
    table: dict[str, Element],
    regions: dict[str, str],
) -> EnvPlan:
    out = EnvPlan(env)
    try:
        with runlock.hold(root, f"env-{env}", f"cannot plan {env}"):
            digest = render_hash(root, env)
            if digest is None:
                raise StaleError(
                    f"the spec of {env} changed while planning",
                    hint=f"run `gpuplat plan {env}` again",
                )
            roots = stages(root, env, only)
            for stage in stages(root, env):
                saved.discard(stage)
            waiting: str | None = None
            for stage in roots:
                if waiting is not None:
                    out.stages.append(StageSummary(env, stage.stage, "waits", waits_for=waiting))
                    continue
                summary = _plan_stage(stage, binary, progress, digest, table, regions)
                out.stages.append(summary)
                if summary.has_changes and only is None:
                    # A later stage reads this one's state: its plan is only meaningful once
                    # this one is applied.
                    waiting = stage.stage
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
) -> StageSummary:
    tracker = progress.stage(f"{stage.env}/{stage.stage}", "init")
    tf = stage.terraform(binary)
    try:
        tf.init(on_event=tracker.on_event)
        tracker.note("planning")
        stage.plan_file.parent.mkdir(parents=True, exist_ok=True)
        result = tf.plan(stage.plan_file, on_event=tracker.on_event)
        if not result.has_changes:
            stage.plan_file.unlink(missing_ok=True)
            summary = StageSummary(stage.env, stage.stage, "no-changes")
        else:
            plan = tf.show_plan(stage.plan_file)
            summary = summarize(stage.env, stage.stage, plan, table, regions)
    except TerraformError as exc:
        tracker.done("failed")
        raise located(exc, stage) from None
    saved.save(stage, digest, str(binary.version), summary.has_changes, summary.to_json())
    tracker.done("changes planned" if summary.has_changes else "no changes")
    return summary
