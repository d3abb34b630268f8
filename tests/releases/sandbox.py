"""A private copy of the module templates, released folders and lock for tests that change them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpuplat.releases import lock, sources, versions
from gpuplat.render import templates

CACHES = (
    templates.templates_root,
    templates.environment,
    sources.module_sources,
    lock.module_lock,
    versions.latest,
    versions.release_files,
)


def forget() -> None:
    """Drop every cached view of templates, lock and releases."""
    for cached in CACHES:
        cached.cache_clear()


@dataclass(frozen=True)
class Sandbox:
    templates: Path
    releases: Path
    lock: Path

    def template(self, module: str, file: str) -> Path:
        return self.templates / "modules" / module / file


@contextmanager
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    """Point gpuplat at copies of ``templates/``, the released folders and the lock."""
    box = Sandbox(tmp_path / "templates", tmp_path / "releases", tmp_path / "modules.lock.json")
    shutil.copytree(templates.templates_root(), box.templates)
    shutil.copytree(versions.RELEASES, box.releases)
    shutil.copyfile(lock.LOCK_PATH, box.lock)
    forget()
    monkeypatch.setattr(templates, "templates_root", lambda: box.templates)
    monkeypatch.setattr(sources, "templates_root", lambda: box.templates)
    monkeypatch.setattr(versions, "RELEASES", box.releases)
    monkeypatch.setattr(lock, "LOCK_PATH", box.lock)
    try:
        yield box
    finally:
        monkeypatch.undo()
        forget()
