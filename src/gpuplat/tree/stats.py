"""Known file hashes, trusted while a file's status says it was not touched since.

A render with nothing to do still has to know that every file it wrote is as written, and that
gpuplat and the spec did not change: hashing them all is most of its time. Like git's index,
``.gpuplat/cache/stats.json`` keeps each file's size, mtime, ctime and inode beside its sha256;
a file whose status is unchanged is not read again. Any write changes the ctime (which no tool
can set back), a replacement changes the inode. A file changed within the same clock tick as
the moment its status was recorded could keep all four, so an entry is trusted only when the
file's ctime is older than the record by a margin; younger ones are hashed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

STATS = ".gpuplat/cache/stats.json"
RACY_NS = 50_000_000
"""An entry whose file changed less than this long before the record was written is re-hashed."""

_Entry = tuple[int, int, int, int, str]


def _status(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def _hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


class StatCache:
    """sha256 of files by path, remembered with their status (one per project)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.recorded_ns = 0
        self.entries: dict[str, _Entry] = {}
        self.changed = False
        try:
            data = json.loads((root / STATS).read_text(encoding="utf-8"))
            self.recorded_ns = int(data["recorded_ns"])
            self.entries = {k: tuple(v) for k, v in data["files"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            pass

    def sha(self, path: Path) -> str | None:
        """sha256 of a file's bytes (None when it cannot be read), from the record if trusted."""
        key = str(path)
        status = _status(path)
        if status is None:
            return None
        known = self.entries.get(key)
        if known is not None and known[:4] == status and status[2] < self.recorded_ns - RACY_NS:
            return known[4]
        digest = _hash(path)
        if digest is None:
            return None
        self.remember(path, digest, status)
        return digest

    def remember(
        self, path: Path, digest: str, status: tuple[int, int, int, int] | None = None
    ) -> None:
        """Record a file's hash (known by whoever wrote it) with its status now."""
        status = status or _status(path)
        if status is not None and self.entries.get(str(path)) != (*status, digest):
            self.entries[str(path)] = (*status, digest)
            self.changed = True

    def save(self) -> None:
        """Write the record atomically when it changed (a torn one only costs hashing again)."""
        if not self.changed:
            return
        path = self.root / STATS
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            data = {"recorded_ns": time.time_ns(), "files": self.entries}
            tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            tmp.replace(path)
        except OSError:
            return  # a read-only checkout: the next run hashes again
        self.changed = False
