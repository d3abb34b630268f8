"""The answer of the last `validate` of a project, kept while nothing it depends on changed.

A validate's result depends only on the bytes of ``gpuplat.yaml`` and of the overlays it read,
on which files of ``envs/`` could be overlays, on the day (the support calendar) and on gpuplat
itself (its code, catalog and templates: :func:`gpuplat.tree.fingerprint.code_fingerprint`). A
validate that loaded the spec records these with its result in the user's cache folder
(:mod:`gpuplat.cachedir`), one entry per project folder; the next validate with the same options
recomputes each of them (a sha256 of each spec file, a status check of gpuplat's files) and, when
all are equal, answers with the recorded result instead of loading the models again. Every check
still ran for that very input. A spec with errors is not recorded (it is the one being edited).

Entries are JSON, read only when they are the current user's and not writable by others, and
written atomically; an entry that cannot be read or written only costs the full validate.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuplat.errors import ExitCode
from gpuplat.spec.diagnostics import Diagnostic, Mark, Related, Severity

FORMAT = 1


@dataclass(frozen=True)
class ValidateResult:
    """What `validate` found."""

    envs: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    strict: bool
    notes: tuple[str, ...] = ()
    """What the spec cannot promise, said once (e.g. the notice of a spot preemption)."""
    scaling: tuple[str, ...] = ()
    """What the spec means at run time: per autoscaled workload, the replicas a queue depth
    asks for and how long scaling out takes."""

    @property
    def valid_envs(self) -> tuple[str, ...]:
        """The environments checked that have no error (a base-spec error counts for all)."""
        failing = [d for d in self.diagnostics if d.is_error or self.strict]
        if any(not d.envs for d in failing):
            return ()
        bad = {e for d in failing for e in d.envs}
        return tuple(e for e in self.envs if e not in bad)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors

    @property
    def ok(self) -> bool:
        return self.errors == 0 and not (self.strict and self.warnings)

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.ok else ExitCode.INVALID_SPEC

    def summary(self) -> str:
        envs = ", ".join(self.envs) if self.envs else "base spec"
        extra = (
            f" ({self.warnings} warning{'s' if self.warnings != 1 else ''})"
            if self.warnings
            else ""
        )
        return f"valid: {envs}{extra}"

    def to_json(self) -> dict[str, object]:
        return {
            "valid": self.ok,
            "environments": list(self.envs),
            "valid_environments": list(self.valid_envs),
            "errors": self.errors,
            "warnings": self.warnings,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "notes": list(self.notes),
            "scaling": list(self.scaling),
        }


def _entry(root: Path) -> Path:
    from gpuplat.cachedir import folder

    where = hashlib.sha256(os.fsencode(root.resolve())).hexdigest()[:24]
    return folder() / f"validate-{where}.json"


def _code() -> str:
    from gpuplat.cachedir import folder
    from gpuplat.tree.fingerprint import code_fingerprint
    from gpuplat.tree.stats import StatCache

    stats = StatCache(Path("/"), folder() / "code-stats.json")
    code = code_fingerprint(stats)
    stats.save()
    return code


def _listing(root: Path) -> list[str]:
    envs = root / "envs"
    if not envs.is_dir():
        return []
    return [p.relative_to(root).as_posix() for p in sorted(envs.glob("*.y*ml"))]


def _sha(path: Path) -> str:
    from gpuplat.tree.fingerprint import file_sha

    return file_sha(path) or "-"


def _key(envs: tuple[str, ...], strict: bool) -> str:
    return json.dumps([list(envs), strict])


def recall(root: Path, envs: tuple[str, ...], strict: bool) -> ValidateResult | None:
    """The recorded result when everything it was computed from is unchanged, else None."""
    from gpuplat.clock import today

    data = _read(_entry(root))
    if data is None or data.get("format") != FORMAT or data.get("key") != _key(envs, strict):
        return None
    try:
        if data["day"] != today().isoformat() or data["listing"] != _listing(root):
            return None
        if any(_sha(root / rel) != sha for rel, sha in data["read"].items()):
            return None
        if data["code"] != _code():
            return None
        return _result(data["result"])
    except Exception:  # a damaged entry, or a day gpuplat refuses: the full path
        return None


def remember(
    root: Path,
    envs: tuple[str, ...],
    strict: bool,
    read: dict[str, str],
    listing: tuple[str, ...],
    day: str,
    result: ValidateResult,
) -> None:
    """Record ``result`` with what it was computed from (the bytes the load read)."""
    data = {
        "format": FORMAT,
        "key": _key(envs, strict),
        "day": day,
        "listing": list(listing),
        "read": read,
        "code": _code(),
        "result": _plain(result),
    }
    _write(_entry(root), json.dumps(data, separators=(",", ":")))


def _plain(result: ValidateResult) -> dict[str, Any]:
    return {
        "envs": list(result.envs),
        "strict": result.strict,
        "notes": list(result.notes),
        "scaling": list(result.scaling),
        "diagnostics": [_diag_plain(d) for d in result.diagnostics],
    }


def _mark_plain(mark: Mark | None) -> list[Any] | None:
    return None if mark is None else [mark.file, mark.line, mark.col]


def _mark(value: list[Any] | None) -> Mark | None:
    return None if value is None else Mark(str(value[0]), int(value[1]), int(value[2]))


def _diag_plain(d: Diagnostic) -> dict[str, Any]:
    return {
        "severity": d.severity.value,
        "message": d.message,
        "mark": _mark_plain(d.mark),
        "path": list(d.path),
        "hint": d.hint,
        "details": list(d.details),
        "file_rank": d.file_rank,
        "envs": list(d.envs),
        "related": [[_mark_plain(r.mark), list(r.path), r.note] for r in d.related],
    }


def _result(data: dict[str, Any]) -> ValidateResult:
    diags = tuple(
        Diagnostic(
            Severity(d["severity"]),
            d["message"],
            _mark(d["mark"]),
            tuple(d["path"]),
            d["hint"],
            tuple(d["details"]),
            d["file_rank"],
            tuple(d["envs"]),
            tuple(Related(_mark(m) or Mark("", 0, 0), tuple(p), n) for m, p, n in d["related"]),
        )
        for d in data["diagnostics"]
    )
    return ValidateResult(
        tuple(data["envs"]),
        diags,
        bool(data["strict"]),
        tuple(data["notes"]),
        tuple(data["scaling"]),
    )


def _read(path: Path) -> dict[str, Any] | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fh.fileno())
            if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return None
            data = json.loads(fh.read())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return  # a folder that cannot be written: the next validate does the work again
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        temp.replace(path)
    except OSError:
        temp.unlink(missing_ok=True)
