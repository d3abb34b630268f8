"""`gpuplat vendor --cdktf python`: typed CDKTF constructs of the vendored modules."""

from __future__ import annotations

import os
from pathlib import Path

from gpuplat.errors import GpuplatError, user_files
from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.cdktf import ModuleSpec, constructs_file
from gpuplat.vendoring.disk import write_file
from gpuplat.vendoring.interface import read_interface
from gpuplat.vendoring.lock import GeneratedRecord, lock_text, read_lock
from gpuplat.vendoring.state import disk_files, rel

LANGUAGES = {"python": "cdktf/python/gpuplat_modules.py"}
"""Language -> where its constructs go, inside the vendor folder."""


def _summary(name: str, version: str) -> str:
    readme = release_files(Release(name, version)).get("README.md", "")
    paragraphs = [p for p in readme.split("\n\n") if p.strip() and not p.startswith("#")]
    return " ".join(paragraphs[0].split()) if paragraphs else ""


def write_constructs(dest: Path, into: str | None, language: str) -> list[str]:
    """Write the constructs of every vendored module (from the copies as they are on disk).

    Returns:
        The files written, repository-relative.

    Raises:
        GpuplatError: No lock, or an unknown language.
        FileError: A read or write failed.
    """
    from gpuplat.app.vendor import locate_lock

    if language not in LANGUAGES:
        raise GpuplatError(f"no CDKTF constructs for {language}", hint="use python")
    vendor, lock_path = locate_lock(dest, into)
    target = vendor / LANGUAGES[language]
    with user_files(f"write the CDKTF constructs into {target.parent}"):
        lock = read_lock(lock_path)
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
        text = constructs_file(modules)
        write_file(target, text)
        path = rel(target, dest)
        command = f"gpuplat vendor {dest} --cdktf {language}"
        lock.generated[path] = GeneratedRecord(text.splitlines(), command)
        write_file(lock_path, lock_text(lock))
    return [path]
