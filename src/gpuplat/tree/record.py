"""The render manifest: what gpuplat wrote, so hand edits and stale roots can be found."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat import __version__
from gpuplat.tree.uptodate import MANIFEST

if TYPE_CHECKING:
    from gpuplat.render.roots import Rendered

__all__ = ["MANIFEST", "EnvEntry", "Manifest", "read_manifest", "updated_manifest"]


@dataclass
class EnvEntry:
    """One environment's part of the manifest."""

    render_hash: str
    files: dict[str, str]
    clusters: dict[str, str] = field(default_factory=dict)
    """cluster -> the hash of what its plans are computed from (saved plans are bound to it)."""


@dataclass
class Manifest:
    """Everything gpuplat rendered into a project, by environment."""

    gpuplat: str = __version__
    envs: dict[str, EnvEntry] = field(default_factory=dict)

    def owned(self) -> dict[str, str]:
        """Every file gpuplat wrote, with its sha256."""
        out: dict[str, str] = {}
        for entry in self.envs.values():
            out.update(entry.files)
        return out

    def to_text(self) -> str:
        data = {
            "gpuplat": self.gpuplat,
            "environments": {
                name: {
                    "render_hash": e.render_hash,
                    "clusters": dict(sorted(e.clusters.items())),
                    "files": dict(sorted(e.files.items())),
                }
                for name, e in sorted(self.envs.items())
            },
        }
        return json.dumps(data, indent=2, sort_keys=True) + "\n"


def read_manifest(root: Path) -> Manifest:
    """The manifest of the last render, or an empty one (first render, or unreadable)."""
    path = root / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        envs = {
            name: EnvEntry(e["render_hash"], dict(e["files"]), dict(e.get("clusters", {})))
            for name, e in data["environments"].items()
        }
        return Manifest(str(data["gpuplat"]), envs)
    except (OSError, ValueError, KeyError, TypeError):
        return Manifest()


def updated_manifest(previous: Manifest, rendered: Rendered) -> Manifest:
    """The previous manifest with the rendered environments replaced."""
    envs = dict(previous.envs)
    for env, paths in rendered.env_files.items():
        clusters = {c: rendered.cluster_hash(e, c) for e, c in rendered.cluster_files if e == env}
        envs[env] = EnvEntry(rendered.env_hash(env), {p: rendered.sha(p) for p in paths}, clusters)
    return Manifest(__version__, envs)
