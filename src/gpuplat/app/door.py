"""Applying a workload's front-door root (Cloud DNS) after the serving roots it follows.

The door root reads each placement's weight and address from that cluster's serving state, so
it is right whenever it is applied after the serving root that changed: a failover or a
converge applies it after each serving apply of a cluster the workload is placed on (the
target's weight rises once its rollout was waited for; a source's falls after the apply that
takes it out of the door and before the one that takes its replicas down). Its plan is applied
as planned, in the same run: it changes weights and addresses only, which the serving applies
before it already decided.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from gpuplat import runlock
from gpuplat.app.located import located
from gpuplat.progress import Progress
from gpuplat.render.door import has_door_root
from gpuplat.render.naming import door_dir, door_folder, module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.terraform import (
    EventCallback,
    PlanResult,
    Terraform,
    TerraformBinary,
    TerraformError,
)
from gpuplat.workspace import DATA_DIR, StageRoot

DOOR_STAGE = "door"
"""The stage name plan, apply and destroy give every front-door root."""
NEVER_APPLIED = "Unable to find remote state"
"""Terraform's summary when a remote state does not exist, whatever the data source's defaults."""

Planned = TypeVar("Planned")


@dataclass(frozen=True)
class DoorRoot(StageRoot):
    """One workload's front-door root in an environment, and gpuplat's files for it.

    A root like a cluster's stage (plan, apply and destroy handle it as one), under the
    "cluster" ``door-<workload>`` and the stage ``door``, whose folder is the environment's
    ``door-<workload>`` itself.
    """

    @property
    def workload(self) -> str:
        return self.cluster.removeprefix("door-")

    @property
    def label(self) -> str:
        """How progress and results name it: ``prod/door-chat``."""
        return f"{self.env}/{self.cluster}"

    @property
    def root(self) -> Path:
        return self.project / door_dir(self.env, self.workload)

    @property
    def data_dir(self) -> Path:
        return self.project / DATA_DIR / self.env / self.cluster


def door_root(project: Path, env: str, workload: str) -> DoorRoot:
    """The front-door root of ``workload`` in ``env``."""
    return DoorRoot(project, env, door_folder(workload), DOOR_STAGE)


def doors_of(project: Path, env: EnvSpec, clusters: Sequence[str]) -> list[DoorRoot]:
    """The front-door roots that follow any of ``clusters`` (all of the environment's: empty)."""
    return [
        door_root(project, env.name, w.name)
        for w in env.spec.workloads
        if has_door_root(w) and (not clusters or set(w.clusters) & set(clusters))
    ]


def follow(
    project: Path,
    env: EnvSpec,
    clusters: Sequence[str],
    *,
    binary: TerraformBinary,
    progress: Progress,
) -> list[str]:
    """Plan and apply the front-door roots following ``clusters``; the labels of those changed.

    Raises:
        LockedError: Another gpuplat run holds the door root, or Terraform's state lock.
        TerraformError: Terraform failed.
    """
    changed: list[str] = []
    for door in doors_of(project, env, clusters):
        with runlock.hold(
            project, f"door-{env.name}-{door.workload}", f"cannot apply {door.label}"
        ):
            tracker = progress.stage(door.label, "applying")
            tf = door.terraform(binary)
            door.plan_file.parent.mkdir(parents=True, exist_ok=True)
            try:
                tf.init(on_event=tracker.on_event)
                plan, unread = planned_reading(
                    partial(_plan, tf, door.plan_file, tracker.on_event), door, env
                )
                for line in left_out(door, unread):
                    progress.say(line)
                if plan.has_changes:
                    tf.apply(door.plan_file, on_event=tracker.on_event)
            except TerraformError as exc:
                tracker.done("failed")
                # Named as the door root's own failure, not the serving apply before it.
                raise located(exc, door, env) from None
            if plan.has_changes:
                changed.append(door.label)
            door.plan_file.unlink(missing_ok=True)
            tracker.done("applied" if plan.has_changes else "no changes")
    return changed


def _plan(
    tf: Terraform, out: Path, on_event: EventCallback, given: Mapping[str, str]
) -> PlanResult:
    return tf.plan(out, variables=given, on_event=on_event)


def never_applied(exc: TerraformError, door: DoorRoot, env: EnvSpec) -> list[str]:
    """The clusters whose serving state the door root's plan found missing: never applied.

    Only a state that does not exist counts. A state that cannot be reached (its cloud is
    down, or the person lacks its credentials) stays an error: leaving that placement out
    would take a serving cluster out of the record set on a guess.
    """
    workload = next(w for w in env.spec.workloads if w.name == door.workload)
    sources = {
        f"data.terraform_remote_state.{module_label('serving', c)}": c for c in workload.clusters
    }
    found: list[str] = []
    for diag in exc.diagnostics:
        cluster = sources.get((diag.address or "").split("[", 1)[0])
        if diag.is_error and diag.summary == NEVER_APPLIED and cluster and cluster not in found:
            found.append(cluster)
    return found


def planned_reading(
    plan: Callable[[Mapping[str, str]], Planned], door: DoorRoot, env: EnvSpec
) -> tuple[Planned, list[str]]:
    """Run ``plan`` (given the door root's variables), leaving out clusters never applied.

    A cluster whose serving root was never applied has no state, which Terraform refuses to
    read; it has no address either, so it has no item in the record set to lose. Its name goes
    into the root's ``unread`` and the plan runs again; any other failure is raised.

    Returns:
        What ``plan`` returned, and the clusters left out.

    Raises:
        TerraformError: Terraform failed for another reason than a missing serving state.
    """
    unread: list[str] = []
    while True:
        given = {"unread": json.dumps(unread)} if unread else {}
        try:
            return plan(given), unread
        except TerraformError as exc:
            more = [c for c in never_applied(exc, door, env) if c not in unread]
            if not more:
                raise
            unread += more


def left_out(door: DoorRoot, unread: Sequence[str]) -> list[str]:
    """What a person is told of the placements a door plan left out."""
    return [
        f"{door.label}: {cluster}'s serving root was never applied, so its placement is left "
        "out of the record set until it is"
        for cluster in unread
    ]
