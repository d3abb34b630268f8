"""Advisory locks so two gpuplat runs never render or apply the same thing at once."""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from gpuplat.errors import LockedError, user_files

LOCK_DIR = ".gpuplat/locks"


_UNWRITABLE = (errno.EROFS, errno.EACCES, errno.EPERM)


@contextlib.contextmanager
def hold(root: Path, name: str, what: str, *, reading: bool = False) -> Iterator[None]:
    """Hold ``.gpuplat/locks/<name>.lock`` for the duration, or fail at once.

    The lock is an flock: the kernel releases it when the process dies, however it dies, so a
    killed run never leaves a lock behind.

    Args:
        reading: The run only reads (``render --check``, ``--dry-run``): on a checkout it cannot
            write (a CI gate on a read-only mount) it goes on without the lock, as no run can
            write there either.

    Raises:
        LockedError: Another process holds it; the error says who and since when.
        FileError: The lock file cannot be created (e.g. a read-only project).
    """
    folder = root / LOCK_DIR
    path = folder / f"{name}.lock"
    fd = _open(folder, path, name, reading)
    if fd is None:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(path)
            raise LockedError(
                f"{what}: another gpuplat run holds the {name} lock",
                hint="wait for it to finish; the lock is released when that process exits",
                details=(holder,) if holder else (),
            ) from None
        info = {
            "pid": os.getpid(),
            "argv": sys.argv,
            "since": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        }
        os.ftruncate(fd, 0)
        os.write(fd, (json.dumps(info) + "\n").encode())
        yield
    finally:
        os.close(fd)


def _open(folder: Path, path: Path, name: str, reading: bool) -> int | None:
    """The lock file's descriptor; None for a reading run where the file system refuses it."""
    with user_files(f"take the {name} lock"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if reading and exc.errno in _UNWRITABLE:
                return None
            raise


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        command = " ".join(str(a) for a in info.get("argv", []))
        return f"held by pid {info.get('pid')} since {info.get('since')}: {command}"
    except (OSError, ValueError):
        return ""
