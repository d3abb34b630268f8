"""Whether a render has nothing to do, answered before the command line and the spec load.

``gpuplat render`` run again on an unchanged project is the most common render of all (a
Makefile, a pre-commit hook, an editor on save). Its answer needs no model and no template:
the render cache says what every environment was last rendered from (the fingerprint of
gpuplat, the spec and the overlays), the render record says which files that render wrote
and their sha256, and the file-status record says which of those files nobody touched since.
:func:`unchanged` is that check, and the only one: the launcher calls it through
:func:`answer` before click and the models are imported, and a render that got past the
launcher (other options, or any doubt) calls it again under the same lock. So the launcher's
"up to date" is exactly the full render's; whatever it cannot decide, the full render does.

Only modules the interpreter has loaded at its start and gpuplat's record readers are imported
here: paths are strings (``pathlib`` would bring ``re``, ``fnmatch`` and ``urllib``), records are
read and the lock's line written by :mod:`gpuplat.tree.jsonread`, and the day and time come from
:mod:`time`. Callers may pass a :class:`pathlib.Path` wherever a folder is asked for.
"""

from __future__ import annotations

import os
import sys

from gpuplat.tree.fingerprint import env_fingerprints, read_cache
from gpuplat.tree.jsonread import dumps_line, loads
from gpuplat.tree.stats import StatCache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (which imports re)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike

MANIFEST = "envs/manifest.json"
"""The render record, inside envs/ so it switches together with the roots it describes."""
TMP = ".gpuplat/tmp"
"""Where the writer stages a new tree."""
JOURNAL = "render-journal.json"
"""In TMP while the writer's fallback swap is half done (the next render rolls it back)."""
LOCK = ".gpuplat/locks/render.lock"
SPEC_FILE = "gpuplat.yaml"


def recorded_files(root: str | PathLike[str]) -> dict[str, dict[str, str]] | None:
    """Each environment's files in the render record with their sha256; None when unreadable.

    Read as :func:`gpuplat.tree.record.read_manifest` reads it: a record it would not accept
    is refused here too.
    """
    try:
        with open(os.path.join(root, MANIFEST), encoding="utf-8") as fh:
            data = loads(fh.read())
        str(data["gpuplat"])
        out: dict[str, dict[str, str]] = {}
        for name, entry in data["environments"].items():
            str(entry["render_hash"])
            dict(entry.get("clusters", {}))
            out[name] = dict(entry["files"])
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def unchanged(root: str | PathLike[str], envs: Sequence[str]) -> tuple[str, ...] | None:
    """The environments, when nothing a render of ``envs`` depends on changed since the last one.

    Every environment's fingerprint (gpuplat, spec, overlays, day) must equal the render
    cache's, every file the record lists must still be on disk as written, and no released
    module folder may hold a file gpuplat did not write. Otherwise None: render.
    """
    cache = read_cache(root)
    if cache is None or os.path.exists(os.path.join(root, TMP, JOURNAL)):
        return None
    recorded = recorded_files(root)
    selected = tuple(envs) or cache.declared
    if recorded is None or not selected:
        return None
    if any(name not in recorded or name not in cache.overlays for name in selected):
        return None
    stats = StatCache(root)
    inputs = env_fingerprints(root, {name: cache.overlays[name] for name in selected}, stats)
    if any(inputs[name] != cache.inputs.get(name) for name in selected):
        return None
    for name in selected:
        if any(stats.project_sha(p) != digest for p, digest in recorded[name].items()):
            return None
    if _strays(root, {p for name in selected for p in recorded[name]}):
        return None
    # Only a render that is up to date keeps what it learnt about the files: a render that
    # goes on may still refuse the spec, and a refused spec writes no file.
    stats.save()
    return selected


def _strays(root: str | PathLike[str], owned: set[str]) -> bool:
    """Whether a released module folder holds a file gpuplat did not write there."""
    base = os.fspath(root)
    folders = {"/".join(p.split("/")[:3]) for p in owned if p.startswith("modules/")}
    for folder in folders:
        for top, _dirs, names in os.walk(os.path.join(base, folder)):
            rel = os.path.relpath(top, base).replace(os.sep, "/")
            for name in names:
                if f"{rel}/{name}" not in owned and os.path.isfile(os.path.join(top, name)):
                    return True
    return False


def answer(args: Sequence[str], cwd: str | PathLike[str] | None = None) -> int | None:
    """The launcher's answer to ``gpuplat render`` with nothing to do: 0 after saying so.

    None when the command line is anything but ``render`` with ``-C DIR`` and ``-e ENV``
    options, or when the render might have something to do: the full command decides then.
    """
    parsed = _render_args(args)
    if parsed is None:
        return None
    given, envs = parsed
    root = _project(given, os.fspath(cwd) if cwd is not None else os.getcwd())
    if root is None:
        return None
    try:
        fd = os.open(os.path.join(root, LOCK), os.O_RDWR)
    except OSError:
        return None
    try:
        if not _take(fd) or _staged(root):
            return None
        done = unchanged(root, envs)
    except Exception:
        return None
    finally:
        os.close(fd)
    if done is None:
        return None
    sys.stderr.write(f"up to date: {', '.join(done)} (nothing written)\n")
    sys.stderr.flush()
    return 0


def _render_args(args: Sequence[str]) -> tuple[str | None, list[str]] | None:
    """(``-C`` folder, environments) of a plain ``render`` command line; None for any other."""
    project: str | None = None
    envs: list[str] = []
    command = False
    items = list(args)
    i = 0
    while i < len(items):
        token = items[i]
        value: str | None = None
        if token in ("-C", "-e", "--env"):
            if i + 1 >= len(items):
                return None
            value = items[i + 1]
            i += 2
        else:
            i += 1
        if token == "render" and not command:
            command = True
        elif token == "-C" or (token.startswith("-C") and len(token) > 2):
            if project is not None:
                return None
            project = value if value is not None else token[2:]
        elif command and token in ("-e", "--env"):
            envs.append(value or "")
        elif command and token.startswith("--env="):
            envs.append(token[len("--env=") :])
        elif command and token.startswith("-e") and len(token) > 2:
            envs.append(token[2:])
        else:
            return None
    return (project, envs) if command else None


def _project(given: str | None, cwd: str) -> str | None:
    """The project folder as the command line finds it (``-C``, else up from ``cwd``)."""
    if given is not None:
        root = os.path.join(cwd, given)  # an absolute `given` replaces cwd
        return root if os.path.isfile(os.path.join(root, SPEC_FILE)) else None
    if os.path.isfile(os.path.join(cwd, SPEC_FILE)):
        return cwd
    folder = os.path.realpath(cwd)
    while True:
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
        if os.path.isfile(os.path.join(folder, SPEC_FILE)):
            return folder


def _take(fd: int) -> bool:
    """The render lock, as :mod:`gpuplat.runlock` takes it; False when another run holds it."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    import time

    since = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())  # as runlock says it
    holder = {"pid": os.getpid(), "argv": list(sys.argv), "since": since}
    os.ftruncate(fd, 0)
    os.write(fd, (dumps_line(holder) + "\n").encode())
    return True


def _staged(root: str) -> bool:
    """Whether a killed render left staging behind (the full render clears it away)."""
    try:
        names = os.listdir(os.path.join(root, TMP))
    except OSError:
        return False
    return any(name.startswith("stage-") or name == JOURNAL for name in names)
