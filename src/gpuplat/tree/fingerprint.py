"""Fingerprints of what a render depends on, so a render with nothing to do can skip the work.

An environment's fingerprint covers gpuplat itself (its version, code, catalog and templates),
the spec, every overlay file in ``envs/`` and the day. A local cache (``.gpuplat/cache/render.json``, not
committed: it depends on the installed gpuplat) keeps the fingerprint each environment was last
rendered from; when nothing it covers changed and every file the manifest lists is still as
written, a render has nothing to do and returns without loading the spec.

The launcher computes these before anything heavy is imported: paths are strings, records are
read with :mod:`gpuplat.tree.jsonread`, and the fingerprints (short texts) are digested with
the interpreter's own SHA-256 rather than OpenSSL's, whose loading alone costs more than the
digests. Files' bytes are hashed with OpenSSL's (many times faster on large inputs), imported
only when a file has to be read.
"""

from __future__ import annotations

import os

from gpuplat import __version__
from gpuplat.tree.jsonread import loads

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (which imports re)
if TYPE_CHECKING:
    from collections.abc import Callable
    from os import PathLike
    from typing import Any

    from gpuplat.tree.stats import StatCache

_SUFFIXES = {".py", ".yaml", ".json", ".j2"}


def _text_sha256() -> Callable[[bytes], Any]:
    """SHA-256 for short texts: the interpreter's built-in module (``_sha2``, or ``_sha256``
    before Python 3.12), else :mod:`hashlib`'s. The digests are the same."""
    for name in ("_sha2", "_sha256"):
        try:
            return __import__(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256


_sha256 = _text_sha256()


def _files(folder: str) -> list[str]:
    """Files of ``folder`` with a fingerprinted suffix, relative, in a stable order."""
    out: list[str] = []
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(top, folder)
        for name in names:
            if name[name.rfind(".") :] in _SUFFIXES:
                out.append(name if rel == "." else f"{rel}/{name}")
    return sorted(out)


def _tree(base: str, digest: Any, stats: StatCache | None) -> None:
    for rel in _files(base):
        path = os.path.join(base, rel)
        sha = stats.sha(path) if stats is not None else file_sha(path)
        if sha is None:
            continue
        digest.update(f"{rel}\0{sha}\0".encode())


_CODE: list[str] = []


def code_fingerprint(stats: StatCache | None = None) -> str:
    """sha256 of gpuplat's version, code, catalog data and templates (once per process)."""
    if _CODE:
        return _CODE[0]
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    digest = _sha256(__version__.encode())
    _tree(package, digest, stats)
    templates = os.path.join(package, "templates")
    if not os.path.isdir(templates):  # a source checkout: beside src/
        templates = os.path.join(os.path.dirname(os.path.dirname(package)), "templates")
    if os.path.isdir(templates):
        _tree(templates, digest, stats)
    _CODE.append(digest.hexdigest())
    return _CODE[0]


def file_sha(path: str | PathLike[str]) -> str | None:
    """sha256 of a file's bytes, or None when it cannot be read."""
    import hashlib  # OpenSSL's: large inputs

    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None


def overlay_listing(root: str | PathLike[str]) -> tuple[str, ...]:
    """``envs/`` entries that could be overlays, as ``sorted(envs.glob("*.y*ml"))`` lists them.

    Names that match ``*.y*ml`` (hidden ones too, as pathlib's glob), in name order, as
    project paths.
    """
    try:
        names = os.listdir(os.path.join(root, "envs"))
    except OSError:
        return ()
    wanted = (name for name in names if name.endswith("ml") and ".y" in name[:-2])
    return tuple(f"envs/{name}" for name in sorted(wanted))


def env_fingerprints(
    root: str | PathLike[str],
    overlays: dict[str, str],
    stats: StatCache | None = None,
    *,
    read: dict[str, str] | None = None,
    listing: tuple[str, ...] | None = None,
    day: str | None = None,
) -> dict[str, str]:
    """Fingerprint of each environment's render inputs (``overlays``: env -> its overlay file).

    Besides the spec and the overlay: every file in ``envs/`` that could be an overlay (a new
    ``envs/staging.yaml`` for an undeclared environment makes the spec invalid) and the day the
    support calendar is read for (a version can leave support overnight). Each file is read
    once for all the environments, so all of them are made from the same bytes.

    A render passes what its load saw: ``read`` (project path -> sha256 of the bytes parsed,
    ``-`` for a file that was not there), ``listing`` (the overlay candidates it listed) and
    ``day``; so a file edited while the render ran is recorded as it was read, not as it is
    now, and the next render sees the difference. Files the load listed but did not parse (the
    overlay of an environment not rendered) are hashed now.
    """
    code = code_fingerprint(stats)
    if day is None:
        from gpuplat.clock import day_text

        day = day_text()
    if listing is None:
        listing = overlay_listing(root)
    shas: dict[str, str | None] = {
        rel: (None if digest == "-" else digest) for rel, digest in (read or {}).items()
    }

    def sha(rel: str) -> str | None:
        if rel not in shas:
            shas[rel] = (
                stats.project_sha(rel) if stats is not None else file_sha(os.path.join(root, rel))
            )
        return shas[rel]

    out: dict[str, str] = {}
    for env, overlay in overlays.items():
        digest = _sha256(code.encode())
        digest.update(f"\0today\0{day}".encode())
        for rel in dict.fromkeys(["gpuplat.yaml", overlay, *listing]):
            digest.update(f"\0{env}\0{rel}\0{sha(rel) or '-'}".encode())
        out[env] = digest.hexdigest()
    return out


CACHE = ".gpuplat/cache/render.json"


class RenderCache:
    """What the last successful render of a project was made from.

    A plain class, not a dataclass: the launcher reads it before anything heavy is imported.
    """

    __slots__ = ("declared", "inputs", "overlays")

    def __init__(
        self, declared: tuple[str, ...], overlays: dict[str, str], inputs: dict[str, str]
    ) -> None:
        self.declared = declared
        self.overlays = overlays
        self.inputs = inputs


def read_cache(root: str | PathLike[str]) -> RenderCache | None:
    """The render cache, or None when there is none or it cannot be read."""
    try:
        with open(os.path.join(root, CACHE), encoding="utf-8") as fh:
            data = loads(fh.read())
        return RenderCache(tuple(data["declared"]), dict(data["overlays"]), dict(data["inputs"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_cache(root: str | PathLike[str], cache: RenderCache) -> None:
    """Replace the render cache atomically (a torn cache would only cost a full render)."""
    import json

    path = os.path.join(root, CACHE)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = {"declared": list(cache.declared), "overlays": cache.overlays, "inputs": cache.inputs}
    tmp = f"{os.path.splitext(path)[0]}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, sort_keys=True) + "\n")
    os.replace(tmp, path)
