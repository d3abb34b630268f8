"""The vendored copy on disk against its lock: what changed, went missing or was added.

Paths are reported relative to the repository. A changed file comes with the unified diff
from the recorded text to the text on disk, so the CI gate shows the edit itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gpuplat import __version__
from gpuplat.releases.lock import sha256
from gpuplat.vendoring.lock import (
    GeneratedRecord,
    ModuleRecord,
    VendorLock,
    record_file,
    recorded_text,
)
from gpuplat.vendoring.patch import unified


@dataclass
class Drift:
    """Differences between the disk and the lock."""

    changed: list[tuple[str, list[str]]] = field(default_factory=list)
    """(path, unified diff from the recorded text to the disk's)."""
    missing: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.added)

    def lines(self) -> list[str]:
        """Every difference, for a person: missing, added, then each diff."""
        out = [f"missing: {p}" for p in self.missing]
        out += [f"added: {p}" for p in self.added]
        for path, diff in self.changed:
            out.append(f"changed: {path}")
            out += [f"  {line}" for line in diff]
        return out


def rel(path: Path, dest: Path) -> str:
    """``path`` relative to the repository, with forward slashes."""
    return path.relative_to(dest).as_posix()


def disk_files(folder: Path) -> dict[str, str]:
    """The files of a module folder on disk (not recursive: modules are flat), ``{name: text}``.

    Raises:
        OSError: A file cannot be read.
    """
    if not folder.is_dir():
        return {}
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


def module_drift(dest: Path, vendor: Path, lock: VendorLock, name: str, out: Drift) -> None:
    """Add one module's differences to ``out``."""
    record = lock.modules[name]
    folder = lock.module_dir(vendor, name)
    disk = disk_files(folder)
    for file in sorted(record.files):
        path = rel(folder / file, dest)
        if file not in disk:
            out.missing.append(path)
            continue
        if sha256(disk[file]) != record.files[file].sha256:
            recorded = recorded_text(name, record, file)
            out.changed.append((path, unified(recorded, disk[file], f"recorded/{path}", path)))
    for file in sorted(set(disk) - set(record.files)):
        out.added.append(rel(folder / file, dest))


def generated_drift(dest: Path, lock: VendorLock, out: Drift) -> None:
    """Add the differences of the recorded call files to ``out``."""
    for path, record in sorted(lock.generated.items()):
        target = dest / path
        if not target.is_file():
            out.missing.append(path)
            continue
        text = target.read_text(encoding="utf-8")
        if text != record.text:
            out.changed.append((path, unified(record.text, text, f"recorded/{path}", path)))


def drift(dest: Path, vendor: Path, lock: VendorLock) -> Drift:
    """Every difference between the disk and the lock.

    Raises:
        OSError: A file cannot be read.
        GpuplatError: The lock does not match itself.
    """
    out = Drift()
    for name in sorted(lock.modules):
        module_drift(dest, vendor, lock, name, out)
    generated_drift(dest, lock, out)
    return out


def accepted(dest: Path, vendor: Path, lock: VendorLock) -> VendorLock:
    """The lock that records the disk as it is now (local edits and deletions included).

    Raises:
        OSError: A file cannot be read.
    """
    modules: dict[str, ModuleRecord] = {}
    for name, record in lock.modules.items():
        disk = disk_files(lock.module_dir(vendor, name))
        files = {f: record_file(name, record.version, f, text) for f, text in disk.items()}
        gone = sorted((set(record.files) | set(record.deleted)) - set(disk))
        deleted = [f for f in gone if not (f in record.files and record.files[f].added)]
        modules[name] = ModuleRecord(record.version, files, deleted)
    calls = {}
    for path, call in lock.generated.items():
        target = dest / path
        if target.is_file():
            text = target.read_text(encoding="utf-8")
            calls[path] = GeneratedRecord(text.splitlines(), call.command)
    return VendorLock(__version__, lock.folder, modules, calls)
