"""The catalog's validated data files, kept on disk between runs.

Reading a data file costs its YAML parse and building its pydantic validator; a command that
only checks a spec spends more on that than on the check. Each validated file is therefore
kept in the user's cache folder (``GPUPLAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/gpuplat``, else
``~/.cache/gpuplat``) under a name made of the file's stem, gpuplat's version and a hash of
the file's bytes and its model: an edited data file or another gpuplat never reads an entry
it did not write.

An entry is written to a temporary file beside it and renamed into place, so a process reads
a whole entry or none, however many run at once. It is read only when the current user owns
it and nobody else may write it (it is a pickle). Any trouble (a read-only or missing folder,
a damaged entry, a model that cannot be pickled) falls back to reading the data file, silently:
the cache only ever saves time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from gpuplat import __version__
from gpuplat.cachedir import ENV_VAR, folder

__all__ = ["ENV_VAR", "entry", "folder", "load", "store"]

_M = TypeVar("_M", bound=BaseModel)


def entry(stem: str, data: bytes, model: type[BaseModel]) -> Path:
    """The entry of one data file's bytes validated by ``model``, for this gpuplat."""
    digest = hashlib.sha256(data)
    digest.update(f"\0{model.__module__}.{model.__qualname__}\0{sys.version_info[:2]}".encode())
    return folder() / f"catalog-{stem}-{__version__}-{digest.hexdigest()[:24]}.pickle"


def load(path: Path, model: type[_M]) -> _M | None:
    """The entry at ``path`` if there is a sound one of the current user's, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return None
        try:
            found = pickle.load(fh)
        except Exception:  # a damaged entry is a miss; the next write replaces it
            return None
    return found if type(found) is model else None


def store(path: Path, value: BaseModel) -> None:
    """Write the entry atomically; a folder that cannot be written is left alone."""
    import threading

    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except Exception:  # read-only or missing folder, or a value pickle cannot take
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        temp.replace(path)
    except OSError:
        temp.unlink(missing_ok=True)
