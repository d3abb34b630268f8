"""Writing into the repository: new module folders built aside and renamed in, files replaced
by rename, the lock written last, so an interrupted run leaves either the old file or the new
one, and the lock never records what is not on disk.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path


def write_file(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def write_folder(folder: Path, files: Mapping[str, str]) -> None:
    """Make ``folder`` hold exactly ``files``: built next to it, then renamed into place.

    An existing folder is swapped out and removed only once the new one is in place.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    stage = folder.with_name(f".{folder.name}.stage-{os.getpid()}")
    old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    shutil.rmtree(stage, ignore_errors=True)
    try:
        stage.mkdir()
        for name, text in sorted(files.items()):
            write_file(stage / name, text)
        if folder.exists():
            folder.rename(old)
        stage.rename(folder)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def remove_folder(folder: Path) -> None:
    """Remove a module folder, and its parent when that is left empty."""
    shutil.rmtree(folder, ignore_errors=True)
    parent = folder.parent
    if parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
