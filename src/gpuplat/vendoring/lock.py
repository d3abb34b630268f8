"""The vendor lock: what gpuplat wrote into a repository, and the local edits it accepted.

``gpuplat-vendor.lock.json`` sits in the vendor folder (default ``modules/gpuplat/``). Per
module it records the version and, per file, the sha256 of the recorded text; a file edited
and accepted also carries the unified diff from the pristine release to that text, so the
edit itself is what a reviewer reads in the lock. Files deleted and accepted are listed as
deleted. Files gpuplat generates (module calls for an existing root, CDKTF constructs) are
recorded whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.errors import GpuplatError
from gpuplat.releases.lock import sha256
from gpuplat.releases.versions import Release, release_files
from gpuplat.vendoring.patch import PatchError, apply, unified

LOCK_NAME = "gpuplat-vendor.lock.json"
LOCK_FORMAT = 1
DEFAULT_INTO = "modules/gpuplat"
DEFAULT_FOLDER = "{module}/{version}"


@dataclass
class FileRecord:
    """One file of a vendored module as recorded."""

    sha256: str
    patch: list[str] | None = None
    """Unified diff from the pristine file (from empty for an added file); None: pristine."""
    added: bool = False
    """Not a file of the release: the repository added it."""


@dataclass
class ModuleRecord:
    """One vendored module."""

    version: str
    files: dict[str, FileRecord] = field(default_factory=dict)
    deleted: list[str] = field(default_factory=list)
    """Files of the release the repository deleted (and accepted deleting)."""


@dataclass
class GeneratedRecord:
    """A file gpuplat generated into the repository: module calls of a root, CDKTF constructs."""

    lines: list[str]
    command: str

    @property
    def text(self) -> str:
        return "".join(f"{line}\n" for line in self.lines)


@dataclass
class VendorLock:
    """The whole lock."""

    gpuplat: str
    folder: str = DEFAULT_FOLDER
    """Where each module goes inside the vendor folder: ``{module}`` and ``{version}``."""
    modules: dict[str, ModuleRecord] = field(default_factory=dict)
    generated: dict[str, GeneratedRecord] = field(default_factory=dict)
    """Repository-relative path -> a file gpuplat generated (module calls, CDKTF constructs)."""

    def module_dir(self, vendor: Path, name: str, version: str | None = None) -> Path:
        """The folder of a module (at ``version``, default: its recorded one)."""
        ver = version if version is not None else self.modules[name].version
        return vendor / self.folder.format(module=name, version=ver)


def recorded_text(name: str, record: ModuleRecord, file: str) -> str:
    """The text the lock records for one file of a vendored module.

    Raises:
        GpuplatError: The lock's patch no longer applies or its hash does not match: the lock
            was edited by hand.
    """
    entry = record.files[file]
    pristine = release_files(Release(name, record.version)).get(file, "")
    try:
        text = pristine if entry.patch is None else apply(pristine, entry.patch)
    except PatchError as exc:
        raise _damaged(f"{name}/{file}: {exc}") from exc
    if sha256(text) != entry.sha256:
        raise _damaged(f"{name}/{file}: the recorded hash does not match the recorded edit")
    return text


def record_file(name: str, version: str, file: str, text: str) -> FileRecord:
    """How the lock records ``text`` as file ``file`` of module ``name`` at ``version``."""
    pristine = release_files(Release(name, version))
    if file not in pristine:
        return FileRecord(sha256(text), unified("", text, "/dev/null", f"b/{file}"), added=True)
    if pristine[file] == text:
        return FileRecord(sha256(text))
    return FileRecord(sha256(text), unified(pristine[file], text, f"a/{file}", f"b/{file}"))


def _damaged(detail: str) -> GpuplatError:
    return GpuplatError(
        "the vendor lock does not match itself",
        hint="the lock is written by gpuplat only: restore it from version control",
        details=(detail,),
    )


def read_lock(path: Path) -> VendorLock:
    """Read a vendor lock.

    Raises:
        GpuplatError: It is not a vendor lock gpuplat can read.
        OSError: It cannot be read.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("lock_format") != LOCK_FORMAT:
            raise ValueError(f"lock_format {data.get('lock_format')!r}, expected {LOCK_FORMAT}")
        modules = {
            name: ModuleRecord(
                m["version"],
                {
                    f: FileRecord(r["sha256"], r.get("patch"), bool(r.get("added", False)))
                    for f, r in m["files"].items()
                },
                list(m.get("deleted", [])),
            )
            for name, m in data["modules"].items()
        }
        generated = {
            p: GeneratedRecord(list(c["lines"]), c["command"])
            for p, c in data.get("generated", {}).items()
        }
        return VendorLock(data["gpuplat"], data.get("folder", DEFAULT_FOLDER), modules, generated)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise GpuplatError(
            f"{path} is not a gpuplat vendor lock: {exc}",
            hint="it is written by `gpuplat vendor`; restore it from version control",
        ) from exc


def lock_text(lock: VendorLock) -> str:
    """The lock as JSON: sorted, two-space indented, one trailing newline."""
    modules: dict[str, object] = {}
    for name, m in sorted(lock.modules.items()):
        files: dict[str, object] = {}
        for f, r in sorted(m.files.items()):
            entry: dict[str, object] = {"sha256": r.sha256}
            if r.added:
                entry["added"] = True
            if r.patch is not None:
                entry["patch"] = r.patch
            files[f] = entry
        body: dict[str, object] = {"version": m.version, "files": files}
        if m.deleted:
            body["deleted"] = sorted(m.deleted)
        modules[name] = body
    data: dict[str, object] = {
        "lock_format": LOCK_FORMAT,
        "gpuplat": lock.gpuplat,
        "folder": lock.folder,
        "modules": modules,
    }
    if lock.generated:
        data["generated"] = {
            p: {"command": c.command, "lines": c.lines} for p, c in sorted(lock.generated.items())
        }
    return json.dumps(data, indent=2, sort_keys=False) + "\n"
