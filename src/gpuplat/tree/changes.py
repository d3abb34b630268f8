"""Compare a rendered tree with what is on disk: what to create, update, delete, and refuse."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gpuplat.tree.fingerprint import file_sha
from gpuplat.tree.record import MANIFEST, Manifest

if TYPE_CHECKING:
    from gpuplat.render.roots import Rendered

Action = Literal["create", "update", "delete"]


@dataclass(frozen=True)
class Change:
    """One file to write or remove."""

    path: str
    action: Action


@dataclass
class Diff:
    """Everything that separates the disk from the rendered tree."""

    changes: list[Change] = field(default_factory=list)
    edited_modules: list[str] = field(default_factory=list)
    """Files inside released module folders that differ from the release (hand edits)."""
    edited_roots: list[str] = field(default_factory=list)
    """Root files changed since gpuplat wrote them; a render overwrites them."""
    new_module_folders: list[str] = field(default_factory=list)
    manifest_text: str = ""
    manifest_changed: bool = False

    @property
    def clean(self) -> bool:
        return not (
            self.changes or self.new_module_folders or self.edited_modules or self.manifest_changed
        )


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def diff(
    root: Path, rendered: Rendered, previous: Manifest, manifest: Manifest, envs: Iterable[str]
) -> Diff:
    """What a render of ``envs`` would change in the project at ``root``."""
    out = Diff(manifest_text=manifest.to_text())
    for folder in sorted(rendered.modules):
        on_disk = root / folder
        if not on_disk.exists():
            out.new_module_folders.append(folder)
            continue
        expected = {p for p in rendered.module_hashes if p.startswith(folder + "/")}
        present = {
            f"{folder}/{p.relative_to(on_disk).as_posix()}"
            for p in on_disk.rglob("*")
            if p.is_file()
        }
        for path in sorted(expected | present):
            if path not in expected or file_sha(root / path) != rendered.module_hashes[path]:
                out.edited_modules.append(path)
    owned_before = previous.owned()
    for path, text in rendered.files.items():
        current = _read(root / path)
        if current is None:
            out.changes.append(Change(path, "create"))
        elif current != text:
            out.changes.append(Change(path, "update"))
            digest = hashlib.sha256(current.encode("utf-8")).hexdigest()
            if path in owned_before and digest != owned_before[path]:
                out.edited_roots.append(path)
    for env in envs:
        entry = previous.envs.get(env)
        if entry is None:
            continue
        for path in sorted(entry.files):
            gone = path not in rendered.files and not path.startswith("modules/")
            if gone and (root / path).is_file():
                out.changes.append(Change(path, "delete"))
    out.manifest_changed = _read(root / MANIFEST) != out.manifest_text
    return out
