"""Saved plans and what they are bound to: the render, gpuplat's version, terraform's version."""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from gpuplat import __version__
from gpuplat.errors import user_files
from gpuplat.workspace import StageRoot


@dataclass(frozen=True)
class SavedPlan:
    """The metadata written beside a saved plan file."""

    env: str
    stage: str
    render_hash: str
    """The hash of the cluster's rendered roots and modules the plan was made from."""
    gpuplat: str
    terraform: str
    created: str
    has_changes: bool
    plan_sha256: str | None
    summary: dict[str, object]
    cluster: str = ""


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def save(
    stage: StageRoot,
    render_hash: str,
    terraform: str,
    has_changes: bool,
    summary: dict[str, object],
) -> SavedPlan:
    """Record a fresh plan of ``stage`` (the plan file is already written when it has changes)."""
    meta = SavedPlan(
        env=stage.env,
        stage=stage.stage,
        cluster=stage.cluster,
        render_hash=render_hash,
        gpuplat=__version__,
        terraform=terraform,
        created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        has_changes=has_changes,
        plan_sha256=_sha(stage.plan_file) if has_changes else None,
        summary=summary,
    )
    with user_files(f"save the plan of {stage.label}"):
        stage.plan_meta.parent.mkdir(parents=True, exist_ok=True)
        stage.plan_meta.write_text(
            json.dumps(asdict(meta), indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
    return meta


def load(stage: StageRoot) -> SavedPlan | None:
    """The saved plan metadata of a stage, or None."""
    try:
        data = json.loads(stage.plan_meta.read_text(encoding="utf-8"))
        return SavedPlan(**data)
    except (OSError, ValueError, TypeError):
        return None


def discard(stage: StageRoot) -> None:
    """Forget a stage's saved plan (after applying it, or before planning again)."""
    stage.plan_file.unlink(missing_ok=True)
    stage.plan_meta.unlink(missing_ok=True)


def stale_reason(
    meta: SavedPlan, stage: StageRoot, render_hash: str | None, terraform: str
) -> str | None:
    """Why a saved plan may not be applied, or None when it still describes the world."""
    if render_hash is None:
        return "the rendered tree no longer matches the spec (it changed since the last render)"
    if meta.render_hash != render_hash:
        return "the cluster's roots were rendered again after this plan was made"
    if meta.gpuplat != __version__:
        return f"it was made by gpuplat {meta.gpuplat}; this is {__version__}"
    if meta.terraform != terraform:
        return f"it was made with terraform {meta.terraform}; this is {terraform}"
    if meta.has_changes and _sha(stage.plan_file) != meta.plan_sha256:
        return "the plan file is missing or was changed"
    return None
