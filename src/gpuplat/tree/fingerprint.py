"""Fingerprints of what a render depends on, so a render with nothing to do can skip the work.

An environment's fingerprint covers gpuplat itself (its version, code, catalog and templates),
the spec, every overlay file in ``envs/`` and the day. A local cache (``.gpuplat/cache/render.json``, not
committed: it depends on the installed gpuplat) keeps the fingerprint each environment was last
rendered from; when nothing it covers changed and every file the manifest lists is still as
written, a render has nothing to do and returns without loading the spec.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from gpuplat import __version__
from gpuplat.tree.stats import StatCache

_SUFFIXES = {".py", ".yaml", ".json", ".j2"}


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


def _tree(folder: Path, digest: hashlib._Hash, stats: StatCache | None) -> None:
    base = str(folder)
    for rel in _files(base):
        path = os.path.join(base, rel)
        sha = stats.sha(path) if stats is not None else file_sha(Path(path))
        if sha is None:
            continue
        digest.update(f"{rel}\0{sha}\0".encode())


_CODE: list[str] = []


def code_fingerprint(stats: StatCache | None = None) -> str:
    """sha256 of gpuplat's version, code, catalog data and templates (once per process)."""
    if _CODE:
        return _CODE[0]
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(__version__.encode())
    _tree(package, digest, stats)
    templates = package / "templates"
    if not templates.is_dir():
        templates = package.parents[1] / "templates"  # a source checkout
    if templates.is_dir():
        _tree(templates, digest, stats)
    _CODE.append(digest.hexdigest())
    return _CODE[0]


def file_sha(path: Path) -> str | None:
    """sha256 of a file's bytes, or None when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def env_fingerprints(
    root: Path,
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
        from gpuplat.clock import today

        day = today().isoformat()
    if listing is None:
        envs = root / "envs"
        candidates = sorted(envs.glob("*.y*ml")) if envs.is_dir() else []
        listing = tuple(p.relative_to(root).as_posix() for p in candidates)
    shas: dict[str, str | None] = {
        rel: (None if digest == "-" else digest) for rel, digest in (read or {}).items()
    }

    def sha(rel: str) -> str | None:
        if rel not in shas:
            shas[rel] = stats.project_sha(rel) if stats is not None else file_sha(root / rel)
        return shas[rel]

    out: dict[str, str] = {}
    for env, overlay in overlays.items():
        digest = hashlib.sha256(code.encode())
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


def read_cache(root: Path) -> RenderCache | None:
    """The render cache, or None when there is none or it cannot be read."""
    try:
        data = json.loads((root / CACHE).read_text(encoding="utf-8"))
        return RenderCache(tuple(data["declared"]), dict(data["overlays"]), dict(data["inputs"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_cache(root: Path, cache: RenderCache) -> None:
    """Replace the render cache atomically (a torn cache would only cost a full render)."""
    path = root / CACHE
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"declared": list(cache.declared), "overlays": cache.overlays, "inputs": cache.inputs}
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
