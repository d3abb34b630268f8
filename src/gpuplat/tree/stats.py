"""Known file hashes, trusted while a file's status says it was not touched since.

A render with nothing to do still has to know that every file it wrote is as written, and that
gpuplat and the spec did not change: hashing them all is most of its time. Like git's index,
``.gpuplat/cache/stats.json`` keeps each file's size, mtime, ctime and inode beside its sha256;
a file whose status is unchanged is not read again. Any write changes the ctime (which no tool
can set back), a replacement changes the inode. A file changed within the same clock tick as
the moment its status was recorded could keep all four, so an entry is trusted only when the
file's ctime is older than the record by a margin; younger ones are hashed again.

A project's own files are keyed by their path inside the project, so the record holds whether
gpuplat runs from the project, from one of its folders or with ``-C``; files outside it (gpuplat's
code) by their absolute path.

Like the rest of the launcher's no-op check, this module works on path strings and reads its
record with :mod:`gpuplat.tree.jsonread`: ``pathlib``, ``json`` and ``hashlib`` are imported only
when a file must be hashed or the record written.
"""

from __future__ import annotations

import os
import time

from gpuplat.tree.jsonread import loads

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (which imports re)
if TYPE_CHECKING:
    from os import PathLike

STATS = ".gpuplat/cache/stats.json"
FORMAT = 2
"""Version of the record's layout: a record of another layout is dropped, not misread."""
RACY_NS = 50_000_000
"""An entry whose file changed less than this long before the record was written is re-hashed."""

_Entry = tuple[int, int, int, int, str]


def _status(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def _hash(path: str) -> str | None:
    import hashlib  # OpenSSL's SHA-256: loaded only when a file's status changed

    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None


class StatCache:
    """sha256 of files by path, remembered with their status (one per project)."""

    def __init__(
        self, root: str | PathLike[str], record: str | PathLike[str] | None = None
    ) -> None:
        self.root = root
        self._base = os.fspath(root)
        self.record = os.fspath(record) if record is not None else os.path.join(self._base, STATS)
        """Where the record is kept (default: the project's ``.gpuplat/cache/stats.json``)."""
        self.recorded_ns = 0
        self.entries: dict[str, _Entry] = {}
        self.changed = False
        self._seen: set[str] = set()
        try:
            with open(self.record, encoding="utf-8") as fh:
                data = loads(fh.read())
            if data.get("format") != FORMAT:
                return
            self.recorded_ns = int(data["recorded_ns"])
            self.entries = {k: tuple(v) for k, v in data["files"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            pass

    def project_sha(self, rel: str) -> str | None:
        """:meth:`sha` of a file of the project, by its project-relative path."""
        return self.sha(os.path.join(self._base, rel), rel)

    def sha(self, path: str, key: str | None = None) -> str | None:
        """sha256 of a file's bytes (None when it cannot be read), from the record if trusted.

        Paths are strings: this runs for every file of a render with nothing to do, where
        building a ``Path`` for each costs more than the ``stat``. ``key`` names the file in the
        record (default: ``path`` as given).
        """
        key = path if key is None else key
        self._seen.add(key)
        status = _status(path)
        if status is None:
            self._drop(key)
            return None
        known = self.entries.get(key)
        if known is not None and known[:4] == status and status[2] < self.recorded_ns - RACY_NS:
            return known[4]
        digest = _hash(path)
        if digest is None:
            self._drop(key)
            return None
        self._keep(key, digest, status)
        if known is not None and known[:4] == status:
            self.changed = True  # hashed for being too recent: a new record makes it trusted
        return digest

    def remember(self, rel: str, digest: str) -> None:
        """Record the hash of a project file (known by whoever wrote it) with its status now."""
        self._seen.add(rel)
        status = _status(os.path.join(self._base, rel))
        if status is not None:
            self._keep(rel, digest, status)
        else:
            self._drop(rel)

    def prune(self) -> None:
        """Drop the entries of files that no longer exist (a render deleted them, or a user).

        Files this record already looked at in this run are known; only the others are checked.
        """
        for key in [k for k in self.entries if k not in self._seen]:
            self._seen.add(key)
            path = key if os.path.isabs(key) else os.path.join(self._base, key)
            if _status(path) is None:
                self._drop(key)

    def _drop(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            self.changed = True

    def _keep(self, key: str, digest: str, status: tuple[int, int, int, int]) -> None:
        if self.entries.get(key) != (*status, digest):
            self.entries[key] = (*status, digest)
            self.changed = True

    def save(self) -> None:
        """Write the record atomically when it changed (a torn one only costs hashing again)."""
        if not self.changed:
            return
        import json

        path = self.record
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{os.path.splitext(path)[0]}.{os.getpid()}.tmp"
            data = {"format": FORMAT, "recorded_ns": time.time_ns(), "files": self.entries}
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(data, separators=(",", ":")))
            os.replace(tmp, path)
        except OSError:
            return  # a read-only checkout: the next run hashes again
        self.changed = False
