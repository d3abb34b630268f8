"""`gpuplat vendor --cdktf python`: typed CDKTF constructs of the vendored modules."""

from __future__ import annotations

from pathlib import Path

from gpuplat.errors import GpuplatError, user_files
from gpuplat.vendoring.constructs import LANGUAGES, constructs_text
from gpuplat.vendoring.disk import write_file
from gpuplat.vendoring.lock import GeneratedRecord, lock_text, read_lock
from gpuplat.vendoring.state import rel


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
    with user_files(f"write the CDKTF constructs into {vendor / LANGUAGES[language]}"):
        lock = read_lock(lock_path)
        target, text = constructs_text(vendor, lock, language)
        write_file(target, text)
        path = rel(target, dest)
        command = f"gpuplat vendor {dest} --cdktf {language}"
        lock.generated[path] = GeneratedRecord(text.splitlines(), command)
        write_file(lock_path, lock_text(lock))
    return [path]


def rewrite_recorded(dest: Path, into: str | None) -> list[str]:
    """Write again the constructs the lock records (after an upgrade moved the versions).

    Raises:
        GpuplatError: No lock.
        FileError: A read or write failed.
    """
    from gpuplat.app.vendor import locate_lock

    vendor, lock_path = locate_lock(dest, into)
    with user_files(f"read {lock_path}"):
        lock = read_lock(lock_path)
    return [
        path
        for language in LANGUAGES
        if rel(vendor / LANGUAGES[language], dest) in lock.generated
        for path in write_constructs(dest, into, language)
    ]
