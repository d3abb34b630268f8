"""`gpuplat vendor upgrade`: move vendored modules to new versions, keeping local edits.

A three-way merge per file: base = the pristine old version (gpuplat ships every released
version), ours = the repository's copy, theirs = the pristine new version. .tf files merge by
blocks and attributes (``vendoring.blockmerge``), other files by lines. A file the repository
deleted stays deleted; a file it added is carried over. Any conflict writes nothing (unless a
copy with conflict markers is asked for, outside the repository's tree), and nothing is ever
written as ``.rej``. The module calls that point at the old folder are pointed at the new one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import __version__
from gpuplat.errors import ConflictError, GpuplatError, RefusedError, StaleError, user_files
from gpuplat.hcl.writer import quote
from gpuplat.releases.versions import Release, latest, release_files, release_hashes
from gpuplat.vendoring.blockmerge import Conflict, Merged, merge_terraform, merge_text
from gpuplat.vendoring.destination import read_repository
from gpuplat.vendoring.disk import remove_folder, write_file, write_folder
from gpuplat.vendoring.impact import Impact, impact
from gpuplat.vendoring.lock import (
    GeneratedRecord,
    ModuleRecord,
    VendorLock,
    lock_text,
    read_lock,
    record_file,
)
from gpuplat.vendoring.resolve import resolved_files
from gpuplat.vendoring.state import disk_files, drift, rel


@dataclass
class ModuleUpgrade:
    """One module's move."""

    name: str
    old: str
    new: str
    folder: str
    """The new folder, repository-relative."""
    texts: dict[str, str] = field(default_factory=dict)
    """The merged files (where clean)."""
    conflicts: list[tuple[str, Conflict]] = field(default_factory=list)
    """(repository-relative file in ours, conflict)."""
    merged: dict[str, Merged] = field(default_factory=dict)
    kept_edits: list[str] = field(default_factory=list)
    """Files whose local edits were carried into the new version."""
    still_deleted: list[str] = field(default_factory=list)
    """Files the repository deleted that the new version changed: they stay deleted."""
    impact: Impact | None = None


@dataclass
class UpgradeResult:
    """What an upgrade did, or (dry run) would do."""

    modules: list[ModuleUpgrade] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    """``file:line`` of each module source pointed at a new folder."""
    written: bool = False
    conflict_copy: str | None = None


def _targets(root: Path, lock: VendorLock, names: Sequence[str]) -> dict[str, str]:
    """Module -> the version to move to: ``name@version`` as named, else the spec's version
    where there is a spec, else the latest.

    Raises:
        GpuplatError: A named module is not vendored, or gpuplat ships no such version.
    """
    from gpuplat.app.vendor import wanted_releases

    pinned = dict(entry.partition("@")[::2] for entry in names)
    for name, version in pinned.items():
        if name not in lock.modules:
            raise GpuplatError(
                f"{name} is not vendored here",
                hint="vendored: " + ", ".join(sorted(lock.modules)),
            )
        if version:
            release_hashes_or_error(Release(name, version))
    spec: dict[str, str] = {}
    if (root / "gpuplat.yaml").is_file():
        spec = {r.name: r.version for r in wanted_releases(root, ())}
    chosen = [n for n in lock.modules if not pinned or n in pinned]
    return {n: pinned.get(n) or spec.get(n) or latest(n).version for n in sorted(chosen)}


def release_hashes_or_error(release: Release) -> None:
    """Check that gpuplat ships ``release``.

    Raises:
        GpuplatError: It does not (the hint lists the versions it has).
    """
    try:
        release_hashes(release)
    except StaleError as exc:
        raise GpuplatError(exc.message, hint=exc.hint) from exc


def _merge_module(dest: Path, vendor: Path, lock: VendorLock, name: str, new: str) -> ModuleUpgrade:
    record = lock.modules[name]
    old_dir = lock.module_dir(vendor, name)
    new_dir = lock.module_dir(vendor, name, new)
    up = ModuleUpgrade(name, record.version, new, rel(new_dir, dest) + "/")
    base = release_files(Release(name, record.version))
    theirs = release_files(Release(name, new))
    ours = disk_files(old_dir)
    for file in sorted(set(base) | set(theirs) | set(ours)):
        where = rel(old_dir / file, dest)
        if file in record.deleted:
            if file in theirs and theirs[file] != base.get(file):
                up.still_deleted.append(where)
            continue
        if file not in ours:
            continue  # removed upstream and not there: nothing to do
        if file not in base:
            up.texts[file] = ours[file]  # the repository's own file: carried over
            continue
        if file not in theirs:
            if ours[file] != base[file]:
                up.conflicts.append(
                    (
                        where,
                        Conflict(
                            ("(the whole file: removed upstream, edited here)",),
                            1,
                            base[file],
                            ours[file],
                            "",
                        ),
                    )
                )
            continue
        merge = merge_terraform if file.endswith(".tf") else merge_text
        result = merge(base[file], ours[file], theirs[file])
        up.merged[file] = result
        if result.conflicts:
            up.conflicts += [(where, c) for c in result.conflicts]
            continue
        up.texts[file] = result.text()
        if ours[file] != base[file]:
            up.kept_edits.append(rel(new_dir / file, dest))
    if not up.conflicts:
        up.impact = impact(ours, up.texts)
    return up


def upgrade(
    dest: Path,
    root: Path,
    into: str | None = None,
    modules: Sequence[str] = (),
    *,
    dry_run: bool = False,
    conflict_copy: Path | None = None,
    resolved: Path | None = None,
) -> UpgradeResult:
    """Move the vendored modules of ``dest`` to the versions gpuplat (or the spec) uses.

    Raises:
        RefusedError: The vendored copy has edits that were not accepted.
        ConflictError: An edit and an upstream change meet in one place: nothing was written
            to the repository (a marked copy goes to ``conflict_copy`` when given).
        GpuplatError: No lock, or it does not match itself.
        SpecError: The spec is invalid.
        FileError: The operating system refused a read or a write.
    """
    from gpuplat.app.vendor import locate_lock

    vendor, lock_path = locate_lock(dest, into)
    with user_files(f"read the vendored copy in {vendor}"):
        lock = read_lock(lock_path)
        found = drift(dest, vendor, lock)
        if not found.clean:
            raise RefusedError(
                "the vendored copy has edits that were not accepted",
                hint=f"review them, then `gpuplat vendor --accept {dest}` (or restore them); "
                "an upgrade starts from what the lock records",
                details=tuple(found.lines()),
            )
        result = UpgradeResult()
        for name, version in _targets(root, lock, modules).items():
            if version != lock.modules[name].version:
                result.modules.append(_merge_module(dest, vendor, lock, name, version))
    if resolved is not None:
        _use_resolved(vendor, lock, resolved, result.modules)
    conflicts = [(m, f, c) for m in result.modules for f, c in m.conflicts]
    if conflicts:
        if conflict_copy is not None:
            _write_conflict_copy(conflict_copy, result.modules)
            result.conflict_copy = str(conflict_copy)
        raise _conflicted(conflicts, result.conflict_copy)
    if dry_run or not result.modules:
        return result
    with user_files(f"write the upgrade into {dest}"):
        result.sources = _repoint(dest, vendor, lock, result.modules)
        for up in result.modules:
            old_dir = lock.module_dir(vendor, up.name)
            new_dir = lock.module_dir(vendor, up.name, up.new)
            write_folder(new_dir, up.texts)
            if old_dir != new_dir:
                remove_folder(old_dir)
            theirs = release_files(Release(up.name, up.new))
            deleted = [f for f in lock.modules[up.name].deleted if f in theirs]
            lock.modules[up.name] = ModuleRecord(
                up.new,
                {f: record_file(up.name, up.new, f, t) for f, t in up.texts.items()},
                deleted,
            )
        lock.gpuplat = __version__
        write_file(lock_path, lock_text(lock))
    from gpuplat.app.cdktf import rewrite_recorded

    # The CDKTF constructs name the module folders: they follow the new versions.
    result.sources += rewrite_recorded(dest, into)
    result.written = True
    return result


def _repoint(dest: Path, vendor: Path, lock: VendorLock, ups: list[ModuleUpgrade]) -> list[str]:
    """Point every module source at an old folder to the new one; returns ``file:line``."""
    moves = {
        lock.module_dir(vendor, u.name).resolve(): lock.module_dir(vendor, u.name, u.new)
        for u in ups
        if lock.module_dir(vendor, u.name) != lock.module_dir(vendor, u.name, u.new)
    }
    if not moves:
        return []
    files, _ = read_repository(dest, skip=(vendor,))
    done: list[str] = []
    for tf in files:
        edits = []
        for module in tf.modules:
            value = module.source.value
            if not value.startswith(("./", "../")):
                continue
            target = moves.get((tf.path.parent / value).resolve())
            if target is None:
                continue
            new = Path(os.path.relpath(target, tf.path.parent)).as_posix()
            edits.append((module.source, new if new.startswith(".") else f"./{new}"))
            done.append(module.source.where(dest))
        if not edits:
            continue
        text = tf.path.read_text(encoding="utf-8")
        for located, new in sorted(edits, key=lambda e: -e[0].start):
            text = text[: located.start] + quote(new) + text[located.end :]
        write_file(tf.path, text)
        path = rel(tf.path, dest)
        if path in lock.generated:
            lock.generated[path] = GeneratedRecord(text.splitlines(), lock.generated[path].command)
    return done


def _use_resolved(vendor: Path, lock: VendorLock, folder: Path, ups: list[ModuleUpgrade]) -> None:
    """Take the hand-resolved merge of every conflicting module from ``folder``."""
    problems: list[str] = []
    with user_files(f"read the resolved merge in {folder}"):
        for up in ups:
            if not up.conflicts:
                continue
            expected = set(up.texts) | set(up.merged)
            files, unresolved = resolved_files(folder, up.name, up.new, expected)
            problems += [u.line() for u in unresolved]
            if unresolved:
                continue
            up.texts, up.conflicts, up.merged = files, [], {}
            up.impact = impact(disk_files(lock.module_dir(vendor, up.name)), up.texts)
    if problems:
        raise ConflictError(
            f"the resolved merge in {folder} is not complete; nothing written",
            hint="remove every conflict marker (keep the lines you want of both sides), then "
            "run the same upgrade with --resolved again",
            details=tuple(problems),
        )


def _write_conflict_copy(folder: Path, ups: list[ModuleUpgrade]) -> None:
    for up in ups:
        files = dict(up.texts)
        for name, merged in up.merged.items():
            files[name] = merged.text("yours", f"gpuplat {up.name} {up.new}")
        write_folder(folder / up.name / up.new, files)


def _conflicted(
    conflicts: list[tuple[ModuleUpgrade, str, Conflict]], copy: str | None
) -> ConflictError:
    details: list[str] = []
    for up, path, c in conflicts:
        details.append(f"{path}:{c.line}  {c.address}  ({up.name} {up.old} -> {up.new})")
        for title, text in (
            ("yours:", c.ours),
            (f"gpuplat {up.name} {up.new}:", c.theirs),
            (f"before ({up.old}):", c.base),
        ):
            details.append(f"    {title}")
            details += [
                f"      {line}" for line in (text.rstrip("\n").splitlines() or ["(nothing)"])
            ]
    n = len(conflicts)
    hint = (
        "make your copy agree with the new version in those places (or undo your edit there), "
        "`gpuplat vendor --accept`, then upgrade again"
    )
    if copy:
        hint += (
            f"; or edit the merge with conflict markers in {copy} and run the same upgrade "
            f"with --resolved {copy}"
        )
    else:
        hint += "; --conflicts DIR writes the merge with conflict markers into DIR"
    return ConflictError(
        f"{n} conflict{'s' if n != 1 else ''} between your edits and the new versions; nothing written",
        hint=hint,
        details=tuple(details),
    )
