"""Helpers shared by the commands that run Terraform: render binding and located errors."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from gpuplat.addresses import Element, element_of, elements
from gpuplat.errors import TerraformError
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.locate import Locator
from gpuplat.targets import TARGETS
from gpuplat.tree.record import read_manifest
from gpuplat.tree.uptodate import unchanged
from gpuplat.workspace import StageRoot


def render_hash(root: Path, env: str, cluster: str) -> str | None:
    """What a cluster's plans in ``env`` are bound to, or None when the spec changed since the
    render."""
    if unchanged(root, [env]) is None:
        return None
    entry = read_manifest(root).envs.get(env)
    return entry.clusters.get(cluster) if entry else None


def env_render_hash(root: Path, env: str) -> str | None:
    """What the plans of ``env``'s front-door roots are bound to (the environment's files), or
    None when the spec changed since the render."""
    if unchanged(root, [env]) is None:
        return None
    entry = read_manifest(root).envs.get(env)
    return entry.render_hash if entry else None


def located(exc: TerraformError, stage: StageRoot, env: EnvSpec | None = None) -> TerraformError:
    """The same error, with each diagnostic pointing at the rendered file and the spec.

    Terraform reports files relative to the root it ran in; people want the path in their
    project, and — for resources gpuplat rendered from a spec element — where that element is
    written in the spec.
    """
    table = elements(env.spec, stage.cluster) if env is not None else {}
    locator = Locator(env.tree, {"gpuplat.yaml": 0}) if env is not None else None
    details: list[str] = []
    for diag in exc.diagnostics:
        where = ""
        if diag.filename:
            path = os.path.normpath(stage.root / diag.filename)
            rel = os.path.relpath(path, stage.project)
            where = f"{rel}:{diag.line or 0}:{diag.column or 0}"
        spec = ""
        if diag.address and locator is not None:
            element: Element = element_of(diag.address, table, stage.cluster)
            if element.kind != "other":
                spec = f"  (from {element.label()} at {locator.mark(element.path)})"
        head = f"{diag.severity}: {diag.summary}"
        details.append(head)
        if where or diag.address:
            details.append(f"  {where}  {diag.address or ''}".rstrip() + spec)
        if diag.detail:
            details.extend(f"  {line}" for line in diag.detail.splitlines() if line.strip())
    if not details:
        details = [line for line in exc.stderr_tail.splitlines()[-10:] if line.strip()]
    message = f"terraform failed in {stage.label}: {exc.message}"
    return replace(exc, message=message, details=tuple(details), hint=exc.hint or _hint(exc))


def _hint(exc: TerraformError) -> str | None:
    """gpuplat's word on a failure Terraform explains in its own terms (missing credentials)."""
    text = "\n".join(
        [exc.stderr_tail, *exc.details, *(f"{d.summary}\n{d.detail}" for d in exc.diagnostics)]
    )
    for cloud in TARGETS.values():
        hint = cloud.credentials_hint(text)
        if hint is not None:
            return hint
    return None
