"""Put a rendered tree on disk so that an interrupted render leaves the previous tree intact.

New module version folders are built aside and renamed into place (they never replace
anything). Everything else gpuplat writes lives in ``envs/``: a complete new ``envs/`` is staged
next to the old one — unchanged files as hard links, so their inodes and mtimes stay — and the
two are swapped with one ``renameat2(RENAME_EXCHANGE)`` call. Before that call the old tree is
untouched; after it the new tree is complete. Where the kernel or file system lacks the
exchange, two renames guarded by a journal are used, and the next run rolls back a half swap.

Durability: files are written without a flush each; once the whole stage is written, one
``syncfs`` on its file system (or, where that call is missing, an fsync of every staged file and
folder) makes it durable before anything is renamed into place, and the folders the renames
changed are fsynced after them. So a machine that loses power mid-render also comes back with
the previous tree or the new one, never a renamed tree whose files are still empty.
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
from gpuplat.tree.uptodate import JOURNAL, MANIFEST, TMP

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
    written: list[Path] = []
    try:
        folders = list(new_module_folders)
        for folder in folders:
            built = stage / folder
            for path, text in files.items():
                if path.startswith(folder + "/"):
                    written.append(_write_file(built / path[len(folder) + 1 :], text))
        staged = _stage_envs(root, stage, files, changes, manifest_text, written)
        _durable(stage, written)
        _pause("modules-staged")
        for folder in folders:
            target = root / folder
            target.parent.mkdir(parents=True, exist_ok=True)
            (stage / folder).rename(target)
        _sync_dirs({(root / folder).parent for folder in folders})
        _pause("modules-placed")
        _swap_envs(root, stage, staged)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _stage_envs(
    root: Path,
    stage: Path,
    files: dict[str, str],
    changes: Iterable[Change],
    manifest: str,
    written: list[Path],
) -> Path:
    """The complete new envs/ beside the live one: unchanged files hard-linked, the rest new."""
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
            written.append(_write_file(target, files[change.path]))
    written.append(_write_file(staged / MANIFEST.removeprefix("envs/"), manifest))
    return staged


def _swap_envs(root: Path, stage: Path, staged: Path) -> None:
    live = root / "envs"
    _pause("envs-staged")
    if not live.exists():
        staged.rename(live)
        _sync_dirs({root})
        return
    if _exchange(staged, live):
        _sync_dirs({root})
        _pause("envs-swapped")
        return
    _fallback_swap(root, live, staged, stage)
    _sync_dirs({root})


def _fallback_swap(root: Path, live: Path, staged: Path, stage: Path) -> None:
    journal = root / TMP / JOURNAL
    old = stage / "old-envs"
    record = {"live": "envs", "old": old.relative_to(root).as_posix()}
    _durable(journal.parent, [_write_file(journal, json.dumps(record))])
    live.rename(old)
    _pause("fallback-half")
    staged.rename(live)
    journal.unlink()


def _write_file(path: Path, text: str) -> Path:
    """Write a new file (never into an existing inode: it may be a hard link to the live tree).

    Not flushed: :func:`_durable` makes a whole stage durable at once before it is renamed in.
    """
    data = text.encode("utf-8")
    path.unlink(missing_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    return path


def _syncfs() -> object | None:
    """libc's ``syncfs`` (Linux), or None where there is no such call."""
    if os.environ.get("GPUPLAT_TEST_NO_SYNCFS") == "1":
        return None  # seam: exercise the per-file fsync fallback
    try:
        return ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None


def _durable(stage: Path, written: list[Path]) -> None:
    """Make every file written under ``stage`` (and the folders holding them) durable at once.

    One ``syncfs`` writes back the whole file system the stage lives on: its files' data and
    the journal holding their names. Without that call, each file and then each folder is
    fsynced, in one batch after all were written.
    """
    syncfs = _syncfs()
    if syncfs is not None:
        fd = os.open(stage, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:  # type: ignore[operator]
                return
        finally:
            os.close(fd)
    for path in written:
        _fsync(path)
    _sync_dirs({p.parent for p in written})


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_dirs(folders: Iterable[Path]) -> None:
    """fsync folders whose entries changed (a rename is durable once its folder is)."""
    for folder in sorted(set(folders)):
        if folder.is_dir():
            _fsync(folder)


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
        written = [_write_file(stage / rel, text) for rel, text in wanted.items()]
        _durable(stage, written)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            stage.rename(target)
        elif not _exchange(stage, target):
            old = target.parent / f".{target.name}.old-{os.getpid()}"
            target.rename(old)
            stage.rename(target)
            shutil.rmtree(old)
        _sync_dirs({target.parent})
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return True
