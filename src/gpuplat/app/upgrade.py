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
from gpuplat.vendoring.impact import Impact, ResourceChange, impact
from gpuplat.vendoring.lock import (
    GeneratedRecord,
    ModuleRecord,
    VendorLock,
    lock_text,
    read_lock,
    record_file,
)
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
        hint += f"; the merge with conflict markers is in {copy}"
    else:
        hint += "; --conflicts DIR writes the merge with conflict markers into DIR"
    return ConflictError(
        f"{n} conflict{'s' if n != 1 else ''} between your edits and the new versions; nothing written",
        hint=hint,
        details=tuple(details),
    )


def report(result: UpgradeResult) -> list[str]:
    """What the upgrade changes, for a person: per module versions, edits, infrastructure."""
    lines: list[str] = []
    for up in result.modules:
        lines.append(f"{up.name} {up.old} -> {up.new}  ({up.folder})")
        lines += [f"  kept your edit: {p}" for p in up.kept_edits]
        lines += [f"  stays deleted (changed upstream): {p}" for p in up.still_deleted]
        if up.impact is not None:
            lines += _impact_lines(up.impact)
    return lines


_SHOWN = 8
"""Arguments listed per resource; forcing ones come first."""
_ACTIONS = {
    "create": "created",
    "destroy": "DESTROYED",
    "replace": "may be replaced (destroyed and created again)",
    "unknown": "changed; may be replaced (not known: check `terraform plan`)",
    "instances": "instances created or destroyed (count / for_each changed)",
    "update": "updated in place",
}


def _because(change: ResourceChange) -> str:
    """Why a replacement is possible, not proven: a text compare cannot tell whether the value
    of a replacing argument changes (``[x]`` and ``concat([x], [])`` are one value), only a
    plan can."""
    first = next(a for a in change.args if a.effect == "replace")
    changed = f"it reads {first.via}, which changed" if first.via else "its expression changed"
    return (
        f"{first.path} forces replacement and {changed}; its value may stay the same "
        "(`terraform plan` proves it)"
    )


def _impact_lines(found: Impact) -> list[str]:
    lines: list[str] = []
    if found.variables_added:
        lines.append(
            "  variables added: "
            + ", ".join(f"{n} (required)" if req else n for n, req in found.variables_added)
        )
    if found.variables_removed:
        lines.append("  variables removed: " + ", ".join(found.variables_removed))
    if found.defaults_changed:
        lines.append("  variable defaults changed: " + ", ".join(found.defaults_changed))
    if found.outputs_added or found.outputs_removed:
        lines.append(
            "  outputs: "
            + ", ".join(
                [f"+{o}" for o in found.outputs_added] + [f"-{o}" for o in found.outputs_removed]
            )
        )
    for change in found.resources:
        shown = [
            f"{a.path}"
            + (f" via {a.via}" if a.via else "")
            + (" (forces replacement)" if a.effect == "replace" else "")
            for a in change.args
        ]
        shown = list(dict.fromkeys(shown))
        more = len(shown) - _SHOWN
        args = ", ".join(shown[:_SHOWN]) + (f" and {more} more" if more > 0 else "")
        proven = next(
            (a for a in change.args if a.effect == "replace" and a.constant is not None), None
        )
        if proven is not None and proven.constant is not None:
            was, now = proven.constant
            action = (
                f"REPLACED (destroyed and created again), because {proven.path} changes from "
                f"{was} to {now} for every caller"
            )
        elif change.action == "replace":
            action = f"{_ACTIONS[change.action]}, because {_because(change)}"
        else:
            action = _ACTIONS[change.action]
        lines.append(f"  {change.address}: {action}" + (f": {args}" if args else ""))
    if not lines:
        lines.append("  no change to variables, outputs or resources")
    return lines
