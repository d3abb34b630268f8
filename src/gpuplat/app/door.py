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

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gpuplat import runlock
from gpuplat.progress import Progress
from gpuplat.render.door import has_door_root
from gpuplat.render.naming import door_dir, door_folder
from gpuplat.spec.load import EnvSpec
from gpuplat.terraform import Terraform, TerraformBinary
from gpuplat.workspace import DATA_DIR, PLUGIN_CACHE


@dataclass(frozen=True)
class DoorRoot:
    """One workload's front-door root in an environment, and gpuplat's files for it."""

    project: Path
    env: str
    workload: str

    @property
    def label(self) -> str:
        """How progress and results name it: ``prod/door-chat``."""
        return f"{self.env}/{door_folder(self.workload)}"

    @property
    def root(self) -> Path:
        return self.project / door_dir(self.env, self.workload)

    @property
    def plan_file(self) -> Path:
        return (
            self.project / "envs" / self.env / ".plans" / door_folder(self.workload) / "door.tfplan"
        )

    def terraform(self, binary: TerraformBinary) -> Terraform:
        """A runner for this root; a user's TF_PLUGIN_CACHE_DIR wins over gpuplat's cache."""
        cache = os.environ.get("TF_PLUGIN_CACHE_DIR") or str(self.project / PLUGIN_CACHE)
        return Terraform(
            binary,
            self.root,
            data_dir=self.project / DATA_DIR / self.env / door_folder(self.workload),
            plugin_cache_dir=Path(cache),
        )


def doors_of(project: Path, env: EnvSpec, clusters: Sequence[str]) -> list[DoorRoot]:
    """The front-door roots that follow any of ``clusters`` (all of the environment's: empty)."""
    return [
        DoorRoot(project, env.name, w.name)
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
            tf.init(on_event=tracker.on_event)
            plan = tf.plan(door.plan_file, on_event=tracker.on_event)
            if plan.has_changes:
                tf.apply(door.plan_file, on_event=tracker.on_event)
                changed.append(door.label)
            door.plan_file.unlink(missing_ok=True)
            tracker.done("applied" if plan.has_changes else "no changes")
    return changed
