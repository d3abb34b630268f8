"""`render --manifests DIR`: what the folder holds after a render, and what stays the user's.

The marker file lists every file gpuplat wrote. A render rewrites those of the environments it
rendered and keeps everything else: files the user added (a README, a NetworkPolicy) and, when
only some environments were rendered (``-e prod``), every other environment's manifests, so a
commit of the folder never prunes workloads of an environment nobody asked to touch.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from gpuplat.errors import GpuplatError

HEADER = "written by gpuplat render --manifests; gpuplat keeps the files it did not write\n"
GITOPS_FOLDERS = ("argocd", "flux")
"""Top folders of the GitOps layouts: rebuilt from every environment's manifests each time."""


def owned(folder: Path, marker: str) -> set[str] | None:
    """The files gpuplat wrote into ``folder`` (None: a marker from before the list was kept)."""
    lines = (folder / marker).read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] + "\n" != HEADER:
        return None
    return {line for line in lines[1:] if line}


def current(folder: Path, marker: str) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in folder.rglob("*")
        if p.is_file() and p.relative_to(folder).as_posix() != marker
    }


def merge(
    folder: Path,
    marker: str,
    rendered: Mapping[str, str],
    rendered_envs: Collection[str],
    *,
    all_envs: bool,
) -> tuple[dict[str, str], dict[str, str]]:
    """Split what is on disk into other environments' manifests and the user's own files.

    Args:
        folder: The manifests folder (may not exist yet).
        marker: The marker file's name.
        rendered: The environment manifests of this render (no GitOps files yet).
        rendered_envs: The environments this render rendered.
        all_envs: Every declared environment was rendered: owned files of environments that
            are gone from the spec go too.

    Returns:
        ``(other environments' manifests, the user's files)``: both are written back as they are.

    Raises:
        GpuplatError: A file gpuplat did not write sits where gpuplat now writes one.
    """
    on_disk = current(folder, marker)
    if not on_disk:
        return {}, {}
    mine = owned(folder, marker) if (folder / marker).is_file() else set()
    if mine is None:  # an old marker: every file there was gpuplat's, except what the user added
        mine = {p for p in on_disk if _is_gpuplat_path(p)}
    others: dict[str, str] = {}
    users: dict[str, str] = {}
    for path, text in on_disk.items():
        top = path.split("/", 1)[0]
        if path not in mine:
            users[path] = text
        elif (
            not all_envs
            and top not in rendered_envs
            and top not in GITOPS_FOLDERS
            and not path.endswith("/kustomization.yaml")  # the layout makes these again
        ):
            others[path] = text
    clash = sorted(p for p in users if p in rendered)
    if clash:
        raise GpuplatError(
            f"{folder / clash[0]} was not written by gpuplat, and gpuplat would write it now",
            hint="move or rename that file; gpuplat does not overwrite files it did not write",
        )
    return others, users


def _is_gpuplat_path(path: str) -> bool:
    parts = path.split("/")
    return parts[0] in GITOPS_FOLDERS or (
        len(parts) >= 3
        and (parts[2] in ("serving", "platform") or parts[-1] == "kustomization.yaml")
    )


def marker_text(files: Collection[str]) -> str:
    return HEADER + "".join(f"{p}\n" for p in sorted(files))
