"""Put a rendered tree on disk so that an interrupted render leaves the previous tree intact.

New module version folders are built aside and renamed into place (they never replace
anything). Everything else gpuplat writes lives in ``envs/``: a complete new ``envs/`` is staged
next to the old one — unchanged files as hard links, so their inodes and mtimes stay — and the
two are swapped with one ``renameat2(RENAME_EXCHANGE)`` call. Before that call the old tree is
untouched; after it the new tree is complete. Where the kernel or file system lacks the
exchange, two renames guarded by a journal are used, and the next run rolls back a half swap.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from gpuplat.tree.changes import Change
from gpuplat.tree.record import MANIFEST

TMP = ".gpuplat/tmp"
JOURNAL = "render-journal.json"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
PAUSE_ENV = "GPUPLAT_TEST_PAUSE_AT"
"""Fault-injection seam for the SIGKILL tests: sleep at the named step so a test can kill us."""


def _pause(step: str) -> None:
    if os.environ.get(PAUSE_ENV) == step:
        marker = os.environ.get(PAUSE_ENV + "_MARKER")
        if marker:
            Path(marker).write_text(step, encoding="utf-8")
        time.sleep(60)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; False when the platform cannot."""
    if os.environ.get("GPUPLAT_TEST_NO_EXCHANGE") == "1":
        return False  # fault-injection seam: exercise the journaled fallback
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(a))


def recover(root: Path) -> None:
    """Undo a half-finished fallback swap and remove staging left by killed renders."""
    tmp = root / TMP
    journal = tmp / JOURNAL
    if journal.is_file():
        data = json.loads(journal.read_text(encoding="utf-8"))
        live, old = root / data["live"], root / data["old"]
        if old.exists():
            if live.exists():
                shutil.rmtree(live)
            old.rename(live)
        journal.unlink()
    if tmp.is_dir():
        for leftover in tmp.glob("stage-*"):
            shutil.rmtree(leftover, ignore_errors=True)


def write(
    root: Path,
    files: dict[str, str],
    changes: Iterable[Change],
    new_module_folders: Iterable[str],
    manifest_text: str,
) -> None:
    """Apply ``changes`` (paths under envs/) and create new module folders, atomically.

    Args:
        root: Project folder.
        files: The rendered tree (project-relative path -> text).
        changes: Files of envs/ to create, update or delete.
        new_module_folders: ``modules/<name>/<version>`` folders that do not exist yet.
        manifest_text: The new manifest, written inside the swapped envs/ tree.
    """
    tmp = root / TMP
    tmp.mkdir(parents=True, exist_ok=True)
    stage = tmp / f"stage-{os.getpid()}"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir()
    try:
        for folder in new_module_folders:
            built = stage / folder
            for path, text in files.items():
                if path.startswith(folder + "/"):
                    _write_file(built / path[len(folder) + 1 :], text)
        _pause("modules-staged")
        for folder in new_module_folders:
            target = root / folder
            target.parent.mkdir(parents=True, exist_ok=True)
            (stage / folder).rename(target)
        _pause("modules-placed")
        _swap_envs(root, stage, files, changes, manifest_text)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _swap_envs(
    root: Path, stage: Path, files: dict[str, str], changes: Iterable[Change], manifest: str
) -> None:
    live = root / "envs"
    staged = stage / "envs"
    if live.exists():
        shutil.copytree(live, staged, symlinks=True, copy_function=os.link)
    else:
        staged.mkdir(parents=True)
    for change in changes:
        rel = change.path.removeprefix("envs/")
        target = staged / rel
        if change.action == "delete":
            target.unlink(missing_ok=True)
        else:
            _write_file(target, files[change.path])
    _write_file(staged / MANIFEST.removeprefix("envs/"), manifest)
    _pause("envs-staged")
    if not live.exists():
        staged.rename(live)
        return
    if _exchange(staged, live):
        _pause("envs-swapped")
        return
    _fallback_swap(root, live, staged, stage)


def _fallback_swap(root: Path, live: Path, staged: Path, stage: Path) -> None:
    journal = root / TMP / JOURNAL
    old = stage / "old-envs"
    record = {"live": "envs", "old": old.relative_to(root).as_posix()}
    _write_file(journal, json.dumps(record))
    live.rename(old)
    _pause("fallback-half")
    staged.rename(live)
    journal.unlink()


def _write_file(path: Path, text: str) -> None:
    """Write a new file (never into an existing inode: it may be a hard link to the live tree)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())


def refuse_foreign(target: Path) -> None:
    """Raises GpuplatError: ``target`` holds files and gpuplat never wrote into it."""
    from gpuplat.errors import GpuplatError

    raise GpuplatError(
        f"{target} exists and was not written by gpuplat",
        hint="choose an empty or new folder for --manifests; gpuplat writes only into a folder "
        "it created, and keeps the files you add there later",
    )


def replace_dir(target: Path, files: dict[str, str], marker: str, marker_text: str) -> bool:
    """Make ``target`` hold exactly ``files`` (plus ``marker``), switching it atomically.

    Returns:
        False when ``target`` already held exactly these files (nothing was written).

    Raises:
        GpuplatError: ``target`` has content gpuplat did not write (no marker file).
    """
    if target.exists() and any(target.iterdir()) and not (target / marker).is_file():
        refuse_foreign(target)
    wanted = {**files, marker: marker_text}
    if target.is_dir():
        current = {
            p.relative_to(target).as_posix(): p.read_text(encoding="utf-8")
            for p in target.rglob("*")
            if p.is_file()
        }
        if current == wanted:
            return False
    stage = target.parent / f".{target.name}.stage-{os.getpid()}"
    if stage.exists():
        shutil.rmtree(stage)
    try:
        for rel, text in wanted.items():
            _write_file(stage / rel, text)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            stage.rename(target)
        elif not _exchange(stage, target):
            old = target.parent / f".{target.name}.old-{os.getpid()}"
            target.rename(old)
            stage.rename(target)
            shutil.rmtree(old)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return True
