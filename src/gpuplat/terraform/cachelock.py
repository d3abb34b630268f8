"""Turns on the shared provider cache: an init that may rewrite it runs alone.

Terraform's plugin cache is not safe for concurrent use. Two inits may both write one entry,
and an init of a root whose lock file does not list a provider yet installs that provider
into the cache again even when the cache already holds it (terraform 1.4 and later): it
removes the entry and writes it anew. A plan, validate or apply of another root, linked to
that entry, finds no provider at that moment ("there is no package … cached in
.terraform/providers", or "fork/exec …: no such file or directory").

So every terraform command of a root that uses a cache folder takes a lock on the folder
itself: init an exclusive one, every other command a shared one. Plans, validates and applies
still run side by side; an init waits until the commands running from the cache are done,
and they wait for it. ``flock`` on the folder works across threads and processes (two
gpuplat runs of one project) and writes no file into the cache.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

CACHE_ENV = "TF_PLUGIN_CACHE_DIR"
WAIT_INIT = "init waits its turn: other terraform commands are running from the provider cache"
WAIT_COMMAND = "waits its turn: an init is writing the provider cache"


def cache_folder(env: Mapping[str, str], cwd: Path) -> Path | None:
    """The plugin cache the child will use (``TF_PLUGIN_CACHE_DIR`` of its environment; a
    relative one is relative to the root terraform runs in, as terraform reads it)."""
    value = env.get(CACHE_ENV)
    return cwd / value if value else None


@contextmanager
def turn(
    cache: Path | None, *, writes: bool, on_wait: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the cache folder's lock: exclusive when ``writes`` (an init), else shared.

    A folder that does not exist is created for an init (terraform ignores a missing cache
    instead of creating it); for any other command there is nothing to guard then.
    ``on_wait`` is told, once, what the command waits for when it cannot start at once.
    """
    if cache is not None and writes:
        cache.mkdir(parents=True, exist_ok=True)
    fd = None
    if cache is not None:
        # No cache folder: terraform will not use one, there is nothing to guard.
        with suppress(FileNotFoundError):
            fd = os.open(cache, os.O_RDONLY)
    if fd is None:
        yield
        return
    try:
        mode = fcntl.LOCK_EX if writes else fcntl.LOCK_SH
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait(WAIT_INIT if writes else WAIT_COMMAND)
            fcntl.flock(fd, mode)
        yield
    finally:
        os.close(fd)
