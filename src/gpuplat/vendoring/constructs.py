"""Which CDKTF constructs files the vendored modules give, and whether the recorded ones are
still those (``vendor --check`` fails when they name a version the lock no longer holds)."""

from __future__ import annotations

import os
from pathlib import Path

from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.cdktf import ModuleSpec, constructs_file
from gpuplat.vendoring.interface import read_interface
from gpuplat.vendoring.lock import VendorLock
from gpuplat.vendoring.state import disk_files, rel

LANGUAGES = {"python": "cdktf/python/gpuplat_modules.py"}
"""Language -> where its constructs go, inside the vendor folder."""


def _summary(name: str, version: str) -> str:
    readme = release_files(Release(name, version)).get("README.md", "")
    paragraphs = [p for p in readme.split("\n\n") if p.strip() and not p.startswith("#")]
    return " ".join(paragraphs[0].split()) if paragraphs else ""


def constructs_text(vendor: Path, lock: VendorLock, language: str) -> tuple[Path, str]:
    """Where the constructs of ``language`` go and their text, from the vendored copies on disk
    and the versions the lock records.

    Raises:
        OSError: A vendored file cannot be read.
    """
    target = vendor / LANGUAGES[language]
    modules = []
    for name, record in sorted(lock.modules.items()):
        folder = lock.module_dir(vendor, name)
        modules.append(
            ModuleSpec(
                name,
                record.version,
                _summary(name, record.version),
                Path(os.path.relpath(folder, target.parent)).as_posix(),
                read_interface(disk_files(folder)),
            )
        )
    return target, constructs_file(modules)


def stale_constructs(dest: Path, vendor: Path, lock: VendorLock) -> list[str]:
    """The recorded constructs files that are not what the lock's versions give (e.g. still
    naming a version ``vendor upgrade`` replaced), repository-relative.

    Raises:
        OSError: A vendored file cannot be read.
    """
    out: list[str] = []
    for language in LANGUAGES:
        target, text = constructs_text(vendor, lock, language)
        record = lock.generated.get(rel(target, dest))
        if record is not None and record.text != text:
            out.append(rel(target, dest))
    return out
