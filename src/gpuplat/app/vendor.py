"""`gpuplat vendor`: copy module versions into an existing repository, check and accept edits.

Nothing is written until everything was checked: the module versions exist, the repository's
version constraints do not conflict with theirs, no folder or call file of the repository's
own is in the way. The lock is written last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat import __version__
from gpuplat.errors import ConflictError, GpuplatError, RefusedError, StaleError, user_files
from gpuplat.releases.lock import sha256
from gpuplat.releases.versions import Release, latest, release_files, release_hashes
from gpuplat.vendoring.compat import Clash, calling_folders, clashes, module_pins
from gpuplat.vendoring.destination import read_repository
from gpuplat.vendoring.disk import write_file, write_folder
from gpuplat.vendoring.existing import Existing
from gpuplat.vendoring.lock import (
    DEFAULT_FOLDER,
    DEFAULT_INTO,
    LOCK_NAME,
    FileRecord,
    GeneratedRecord,
    ModuleRecord,
    VendorLock,
    lock_text,
    read_lock,
)
from gpuplat.vendoring.state import Drift, drift, rel

if TYPE_CHECKING:
    from gpuplat.spec.model import Cluster


@dataclass
class VendorResult:
    """What ``vendor`` did."""

    lock: str
    written: list[str] = field(default_factory=list)
    """Module folders and call files written, repository-relative."""
    kept: list[str] = field(default_factory=list)
    """Module versions already vendored, left as they are."""
    unreadable: list[str] = field(default_factory=list)
    """.tf files of the repository whose constraints could not be read."""


@dataclass(frozen=True)
class Calls:
    """Which module calls to write: one file per cluster into ``folder``."""

    folder: Path
    env: str | None
    stage: str
    command: str
    existing: tuple[str, ...] = ()
    """Clusters the repository already has: their pools join them (infra stage)."""
    node_role: str | None = None
    """The nodes' IAM role ARN for an existing EKS cluster."""


def locate_lock(dest: Path, into: str | None) -> tuple[Path, Path]:
    """The vendor folder and its lock: ``into`` if given, else the one lock in the repository.

    Raises:
        GpuplatError: No lock, or several and no ``into`` to choose one.
    """
    if into is not None:
        vendor = dest / into
        return vendor, vendor / LOCK_NAME
    default = dest / DEFAULT_INTO / LOCK_NAME
    if default.is_file():
        return default.parent, default
    with user_files(f"search {dest} for {LOCK_NAME}"):
        found = sorted(p for p in dest.rglob(LOCK_NAME) if ".terraform" not in p.parts)
    if len(found) == 1:
        return found[0].parent, found[0]
    if not found:
        raise GpuplatError(
            f"nothing vendored in {dest}: no {LOCK_NAME}",
            hint="vendor modules first with `gpuplat vendor DEST`",
        )
    raise GpuplatError(
        f"{len(found)} vendor locks in {dest}",
        hint="name the vendor folder with --into: " + ", ".join(rel(p.parent, dest) for p in found),
    )


def wanted_releases(root: Path, modules: Sequence[str]) -> list[Release]:
    """The module versions to vendor: ``name`` or ``name@version`` each, else the spec's.

    Raises:
        GpuplatError: A module or version gpuplat does not ship; or no spec and no modules.
        SpecError: The spec is invalid.
    """
    if modules:
        out: list[Release] = []
        for entry in modules:
            name, _, version = entry.partition("@")
            try:
                release = Release(name, version) if version else latest(name)
                release_hashes(release)
            except StaleError as exc:
                raise GpuplatError(exc.message, hint=exc.hint) from exc
            out.append(release)
        return sorted(set(out))
    if not (root / "gpuplat.yaml").is_file():
        raise GpuplatError(
            f"no gpuplat.yaml in {root}: which modules?",
            hint="run in a gpuplat project (or -C DIR) to vendor what its spec uses, or name "
            "the modules: --modules eks-cluster,eks-gpu-node-group",
        )
    from gpuplat.app.render import load_and_render

    _, rendered = load_and_render(root, ())
    return sorted(set(rendered.modules.values()))


def vendor(
    dest: Path,
    root: Path,
    modules: Sequence[str] = (),
    *,
    into: str = DEFAULT_INTO,
    calls: Calls | None = None,
    ignore_constraints: bool = False,
) -> VendorResult:
    """Vendor module versions into ``dest``, and optionally the calls of each cluster.

    Raises:
        ConflictError: The repository's version constraints conflict with a module's.
        RefusedError: A module is vendored at another version (that is an upgrade), or a
            folder or call file in the way was not written by gpuplat.
        GpuplatError: See ``wanted_releases``; the destination is not a folder.
        SpecError: The spec is invalid.
        FileError: The operating system refused a read or a write.
    """
    if not dest.is_dir():
        raise GpuplatError(f"{dest} is not a folder", hint="vendor into an existing repository")
    releases = wanted_releases(root, modules)
    vendor_dir = dest / into
    lock_path = vendor_dir / LOCK_NAME
    with user_files(f"read {lock_path}"):
        lock = (
            read_lock(lock_path) if lock_path.is_file() else VendorLock(__version__, DEFAULT_FOLDER)
        )
    result = VendorResult(rel(lock_path, dest))
    new: list[Release] = []
    for release in releases:
        record = lock.modules.get(release.name)
        if record is None:
            new.append(release)
        elif record.version == release.version:
            result.kept.append(str(release))
        else:
            raise RefusedError(
                f"{release.name} is vendored at {record.version}, not {release.version}",
                hint=f"move it with `gpuplat vendor upgrade {dest}`, which keeps your local edits",
            )
    with user_files(f"read the Terraform of {dest}"):
        files, unreadable = read_repository(dest, skip=(vendor_dir,))
    result.unreadable = [f"{rel(u.path, dest)}:{u.line}: {u.reason}" for u in unreadable]
    callers = (
        []
        if calls is None
        else [calls.folder if calls.folder.is_absolute() else dest / calls.folder]
    )
    within = calling_folders(files, vendor_dir, callers)
    found = clashes(dest, files, [module_pins(r) for r in releases], within)
    if found and not ignore_constraints:
        raise ConflictError(
            f"{len(found)} version constraint{'s' if len(found) != 1 else ''} of {dest} "
            f"conflict{'' if len(found) != 1 else 's'} with the vendored modules; nothing written",
            hint=_clash_hint(found),
            details=tuple(c.line() for c in found),
        )
    folders = {r: lock.module_dir(vendor_dir, r.name, r.version) for r in new}
    for release, folder in folders.items():
        _not_in_the_way(folder, release, dest)
    call_files = _calls(dest, root, lock, vendor_dir, calls) if calls else {}
    with user_files(f"write into {dest}"):
        for release, folder in folders.items():
            texts = release_files(release)
            write_folder(folder, texts)
            lock.modules[release.name] = ModuleRecord(
                release.version, {f: FileRecord(sha256(t)) for f, t in texts.items()}
            )
            result.written.append(rel(folder, dest) + "/")
        for path, (text, command) in call_files.items():
            write_file(dest / path, text)
            lock.generated[path] = GeneratedRecord(text.splitlines(), command)
            result.written.append(path)
        lock.gpuplat = __version__
        write_file(lock_path, lock_text(lock))
    return result


def _clash_hint(found: Sequence[Clash]) -> str:
    """Forward, never back: a repository on a newer provider major needs newer modules."""
    tail = "Terraform would refuse to init a root that calls the modules; vendor anyway with --ignore-constraints"
    if all(c.repository_is_newer for c in found):
        return (
            "the repository is on a newer major than these module versions allow: keep it, and "
            "vendor module versions that allow it (`gpuplat vendor upgrade`, or a newer gpuplat); "
            + tail
        )
    return (
        "the roots that call the modules must allow a version both accept: raise the "
        "repository's lower bound to the modules' (or vendor module versions that allow "
        "yours); " + tail
    )


def _not_in_the_way(folder: Path, release: Release, dest: Path) -> None:
    if not folder.exists():
        return
    on_disk = {p.name for p in folder.iterdir()} if folder.is_dir() else {"?"}
    if on_disk:
        raise RefusedError(
            f"{rel(folder, dest)} exists and is not recorded in the vendor lock",
            hint=f"move it away, or vendor into another folder with --into (it would hold "
            f"{release})",
        )


def _calls(
    dest: Path, root: Path, lock: VendorLock, vendor_dir: Path, calls: Calls
) -> dict[str, tuple[str, str]]:
    """{repository-relative path: (text, command)} of the call files to write."""
    from gpuplat.spec.load import load_project
    from gpuplat.vendoring.calls import calls_name, calls_text

    project = load_project(root, [calls.env] if calls.env else [])
    if calls.env is None and len(project.envs) != 1:
        raise GpuplatError(
            "which environment's values should the module calls carry?",
            hint="name one with -e: " + ", ".join(project.envs),
        )
    env = next(iter(project.envs.values()))
    existing = _existing(env.spec.clusters, calls)
    folder = calls.folder if calls.folder.is_absolute() else dest / calls.folder
    out: dict[str, tuple[str, str]] = {}
    for cluster in env.spec.clusters:
        text = calls_text(
            env,
            cluster,
            calls.stage,
            lambda name, version: lock.module_dir(vendor_dir, name, version),
            folder,
            calls.command,
            existing.get(cluster.name),
        )
        if text is None:
            continue
        path = rel(folder / calls_name(cluster), dest)
        target = dest / path
        recorded = lock.generated.get(path)
        if target.exists():
            current = target.read_text(encoding="utf-8")
            if recorded is None and current != text:
                raise RefusedError(
                    f"{path} exists and was not written by gpuplat",
                    hint="move it away, or write the calls into another folder",
                )
            if recorded is not None and current != recorded.text:
                raise RefusedError(
                    f"{path} was edited and the edit was not accepted",
                    hint=f"accept it first (`gpuplat vendor --accept {dest}`) or restore it; "
                    "the calls are rewritten from the spec",
                )
        out[path] = (text, calls.command)
    return out


def _existing(clusters: Sequence[Cluster], calls: Calls) -> dict[str, Existing]:
    """{cluster name: what the user said about it} of the clusters the repository has."""
    import difflib

    names = [c.name for c in clusters]
    for name in calls.existing:
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            raise GpuplatError(
                f"--existing-cluster {name}: no such cluster in the spec",
                hint=f"did you mean {close[0]}?"
                if close
                else "the spec's clusters: " + ", ".join(names),
            )
    if calls.existing and calls.stage != "infra":
        raise GpuplatError(
            "--existing-cluster attaches the infra stage's pools to a cluster",
            hint="the later stages' calls reach a cluster through its provider configuration: "
            "write them without --existing-cluster",
        )
    return {name: Existing(calls.node_role) for name in calls.existing}


def check(dest: Path, into: str | None = None) -> tuple[str, int]:
    """The CI gate: the vendored copy is exactly what its lock records.

    Returns:
        The lock's path (repository-relative) and how many files it covers.

    Raises:
        StaleError: Something differs; the details hold a unified diff per changed file.
        GpuplatError: No lock, or the lock does not match itself.
        FileError: A file cannot be read.
    """
    vendor_dir, lock_path = locate_lock(dest, into)
    with user_files(f"read the vendored copy in {vendor_dir}"):
        lock = read_lock(lock_path)
        found = drift(dest, vendor_dir, lock)
    if not found.clean:
        raise _drifted(dest, found)
    from gpuplat.vendoring.constructs import stale_constructs

    with user_files(f"read the vendored copy in {vendor_dir}"):
        stale = stale_constructs(dest, vendor_dir, lock)
    if stale:
        versions = ", ".join(f"{n} {m.version}" for n, m in sorted(lock.modules.items()))
        raise StaleError(
            f"the CDKTF constructs do not call the vendored versions ({versions})",
            hint="write them again: "
            + "; ".join(lock.generated[p].command for p in stale)
            + " (`gpuplat vendor upgrade` does it)",
            details=tuple(stale),
        )
    count = sum(len(m.files) for m in lock.modules.values()) + len(lock.generated)
    return rel(lock_path, dest), count


def _drifted(dest: Path, found: Drift) -> StaleError:
    n = len(found.changed) + len(found.missing) + len(found.added)
    return StaleError(
        f"the vendored copy differs from its lock: {n} file{'s' if n != 1 else ''}",
        hint=f"if the change is reviewed, record it with `gpuplat vendor --accept {dest}` and "
        "commit the lock with it; otherwise restore the files (e.g. `git checkout`)",
        details=tuple(found.lines()),
    )


def accept(dest: Path, into: str | None = None) -> list[str]:
    """Record the vendored copy as it is now, local edits and deletions included.

    Returns:
        What was accepted, one line per file (empty when the copy matched the lock).

    Raises:
        GpuplatError: No lock, or the lock does not match itself.
        FileError: A file cannot be read or the lock written.
    """
    from gpuplat.vendoring.state import accepted

    vendor_dir, lock_path = locate_lock(dest, into)
    with user_files(f"accept the vendored copy in {vendor_dir}"):
        lock = read_lock(lock_path)
        found = drift(dest, vendor_dir, lock)
        if found.clean:
            return []
        write_file(lock_path, lock_text(accepted(dest, vendor_dir, lock)))
    lines = [f"deleted: {p}" for p in found.missing] + [f"added: {p}" for p in found.added]
    return lines + [f"edited: {p}" for p, _ in found.changed]
