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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gpuplat import runlock
from gpuplat.app.located import located
from gpuplat.progress import Progress
from gpuplat.render.door import has_door_root
from gpuplat.render.naming import door_dir, door_folder
from gpuplat.spec.load import EnvSpec
from gpuplat.terraform import TerraformBinary, TerraformError
from gpuplat.workspace import DATA_DIR, StageRoot

DOOR_STAGE = "door"
"""The stage name plan, apply and destroy give every front-door root."""


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
                plan = tf.plan(door.plan_file, on_event=tracker.on_event)
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
