"""The lock of released module versions: the sha256 of every file of every version ever cut.

``modules.lock.json`` (shipped beside the released folders) maps module -> version -> file ->
sha256. A version, once in the lock, never changes and never leaves it: gpuplat reads a
released folder only after checking it against these hashes, and cutting a version only ever
adds entries.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import cache
from pathlib import Path

LOCK_PATH = Path(__file__).with_name("modules.lock.json")

Lock = dict[str, dict[str, dict[str, str]]]
"""``{module: {version: {file name: sha256}}}``."""

_SEMVER = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def sha256(text: str) -> str:
    """Hex sha256 of UTF-8 text (how the lock and the render record hash files)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def version_key(version: str) -> tuple[int, int, int]:
    """Sort key of an ``x.y.z`` module version.

    Raises:
        ValueError: ``version`` is not ``x.y.z``.
    """
    match = _SEMVER.fullmatch(version)
    if match is None:
        raise ValueError(f"module version {version!r} is not x.y.z")
    major, minor, patch = match.groups()
    return int(major), int(minor), int(patch)


@cache
def module_lock() -> Lock:
    """Every released version's file hashes, as recorded in the lock (empty when there is none).

    Raises:
        ValueError: The lock is not valid JSON (a packaging bug, caught by the tests).
    """
    if not LOCK_PATH.is_file():
        return {}
    data: Lock = json.loads(LOCK_PATH.read_text(encoding="utf-8"))
    return data


def write_lock(lock: Lock) -> None:
    """Replace the lock atomically with ``lock`` (sorted, one trailing newline)."""
    text = json.dumps(lock, indent=2, sort_keys=True) + "\n"
    tmp = LOCK_PATH.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(LOCK_PATH)
    module_lock.cache_clear()
