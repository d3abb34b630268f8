"""`gpuplat migrate`: move state from one root per environment and stage (the old layout) into
each cluster's own roots.

Module labels did not change with the layout (``cluster_<name>``, ``pool_<cluster>_<pool>``,
``serve_<workload>_<cluster>``, ...), so every resource keeps its address: the old state of a
stage is pulled once, each cluster's modules are moved into a state file of their own with
``terraform state mv``, that file is pushed into the cluster's new (empty) backend state, and a
refresh-only apply writes the root outputs the later stages read (it changes no object).
The old state is never changed: it stays where it was, as the backup, until you delete it.
"""

from __future__ import annotations

import json
import shutil
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import runlock
from gpuplat.addresses import Element, elements
from gpuplat.app.located import located
from gpuplat.errors import TerraformError, user_files
from gpuplat.hcl.writer import attributes, quote
from gpuplat.progress import Progress
from gpuplat.render.backend import legacy_backend_block
from gpuplat.render.naming import STAGES
from gpuplat.spec.load import EnvSpec, load_project
from gpuplat.terraform import Terraform, TerraformBinary
from gpuplat.workspace import StageRoot, rendered_stages

WORK = ".gpuplat/tmp/migrate"


@dataclass
class StageMove:
    """What moved out of one old stage state."""

    stage: str
    old: str
    """Where the old state is (backend type and key/prefix/path)."""
    moved: dict[str, list[str]] = field(default_factory=dict)
    """cluster -> module addresses moved into its state."""
    skipped: dict[str, str] = field(default_factory=dict)
    """cluster -> why nothing was moved (e.g. its new state already holds resources)."""
    left: list[str] = field(default_factory=list)
    """Resources of the old state that belong to no cluster of the spec."""


@dataclass
class MigrateResult:
    env: str
    stages: list[StageMove] = field(default_factory=list)


def migrate_env(
    root: Path, env: str, *, binary: TerraformBinary, progress: Progress
) -> MigrateResult:
    """Split the environment's old per-stage states into its clusters' states.

    Running it again is safe: a cluster whose new state already holds resources is skipped.

    Raises:
        NotRenderedError: The cluster roots are not rendered yet (run `gpuplat render`).
        LockedError: Another gpuplat run holds a cluster of the environment.
        TerraformError: Terraform refused a pull, move or push; nothing was pushed for that
            cluster and stage.
    """
    loaded = load_project(root, [env]).envs[env]
    clusters = [c.name for c in loaded.spec.clusters]
    table = elements(loaded.spec)
    result = MigrateResult(env)
    with ExitStack() as held, progress.running():
        for cluster in clusters:
            held.enter_context(
                runlock.hold(root, f"env-{env}-{cluster}", f"cannot migrate {env}/{cluster}")
            )
        new_roots = {c: rendered_stages(root, env, c, None) for c in clusters}
        for stage in STAGES:
            targets = {c: next(r for r in new_roots[c] if r.stage == stage) for c in clusters}
            result.stages.append(_stage(root, loaded, stage, targets, table, binary, progress))
    return result


def _stage(
    root: Path,
    env: EnvSpec,
    stage: str,
    targets: dict[str, StageRoot],
    table: dict[str, Element],
    binary: TerraformBinary,
    progress: Progress,
) -> StageMove:
    tracker = progress.stage(f"{env.name}/{stage} (old layout)", "reading the old state")
    work = root / WORK / env.name / stage
    block = legacy_backend_block(env, stage, str(root.absolute()))
    settings = block["settings"]
    assert isinstance(settings, dict)
    where = f"{block['type']} " + str(
        settings.get("key") or settings.get("prefix") or settings.get("path")
    )
    move = StageMove(stage, where)
    with user_files(f"prepare {work}"):
        if work.exists():
            shutil.rmtree(work)
        (work / "old").mkdir(parents=True)
        (work / "split").mkdir()
        (work / "old" / "backend.tf").write_text(
            f"terraform {{\n  backend {quote(str(block['type']))} {{\n"
            f"{attributes(settings, 2)}\n  }}\n}}\n",
            encoding="utf-8",
        )
    old = Terraform(binary, work / "old", data_dir=work / "old-data")
    try:
        old.init(on_event=tracker.on_event)
        text = old.state_pull()
    except TerraformError as exc:
        tracker.done("failed")
        raise _in(exc, f"reading the old state of {env.name}/{stage} ({where})") from None
    resources = json.loads(text).get("resources", []) if text.strip() else []
    if not resources:
        tracker.done("no old state")
        return move
    pulled = work / "old.tfstate"
    with user_files(f"write {pulled}"):
        pulled.write_text(text, encoding="utf-8")
    splitter = Terraform(binary, work / "split", data_dir=work / "split-data")
    owners = _owners(resources, table)
    for cluster, labels in owners.items():
        if cluster not in targets:
            continue
        new = targets[cluster]
        tf = new.terraform(binary)
        try:
            tf.init(on_event=tracker.on_event)
            if tf.state_list():
                move.skipped[cluster] = "its new state already holds resources"
                continue
            out = work / f"{cluster}.tfstate"
            for label in sorted(labels):
                splitter.state_move(pulled, out, f"module.{label}")
            tf.state_push(out)
            # `state mv` moves resources, not the root's outputs, which the later stages read:
            # a refresh-only apply writes them from the moved resources (no object changes).
            tf.refresh(on_event=tracker.on_event)
        except TerraformError as exc:
            tracker.done("failed")
            raise located(exc, new, env) from None
        move.moved[cluster] = [f"module.{label}" for label in sorted(labels)]
    owned = {label for labels in owners.values() for label in labels}
    move.left = sorted(
        f"{r.get('module', '')}.{r['type']}.{r['name']}".lstrip(".")
        for r in resources
        if r.get("mode") == "managed" and _label(r) not in owned
    )
    tracker.done(f"moved into {len(move.moved)} cluster state(s)")
    return move


def _label(resource: dict[str, object]) -> str:
    """The root module label a state resource sits in (``module.<label>...``), or ''."""
    module = str(resource.get("module") or "")
    return module.split(".")[1].split("[")[0] if module.startswith("module.") else ""


def _owners(resources: list[dict[str, object]], table: dict[str, Element]) -> dict[str, set[str]]:
    """cluster -> the module labels of the old state that belong to it."""
    out: dict[str, set[str]] = {}
    for resource in resources:
        label = _label(resource)
        element = table.get(label)
        if element is None or element.kind == "other":
            continue
        out.setdefault(element.cluster, set()).add(label)
    return out


def _in(exc: TerraformError, doing: str) -> TerraformError:
    exc.message = f"terraform failed {doing}: {exc.message}"
    return exc
