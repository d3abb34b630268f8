"""Located problems found in a spec: positions, key paths and their formatting."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

PathPart = str | int
KeyPath = tuple[PathPart, ...]


class Severity(StrEnum):
    """How bad a diagnostic is; warnings fail `validate` only under `--strict`."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True, order=True)
class Mark:
    """A position in a source file, 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Related:
    """Another value that takes part in a problem: e.g. the overlay line that caused it."""

    mark: Mark
    path: KeyPath
    note: str

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.mark.file,
            "line": self.mark.line,
            "column": self.mark.col,
            "path": format_path(self.path),
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in the spec, with where it is and what to do about it."""

    severity: Severity
    message: str
    mark: Mark | None
    path: KeyPath = ()
    hint: str | None = None
    details: tuple[str, ...] = field(default=())
    file_rank: int = 0
    """Order of the file among the loaded files, so sorting keeps the base spec first."""
    envs: tuple[str, ...] = ()
    """Environments the problem was found in; empty when it applies to all of them."""
    related: tuple[Related, ...] = ()
    """The other values the problem depends on, wherever they were written."""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple[int, str, int, int, str, str]:
        if self.mark is None:
            return (self.file_rank, "", 0, 0, format_path(self.path), self.message)
        mark = self.mark
        return (
            self.file_rank,
            mark.file,
            mark.line,
            mark.col,
            format_path(self.path),
            self.message,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "message": self.message,
            "file": self.mark.file if self.mark else None,
            "line": self.mark.line if self.mark else None,
            "column": self.mark.col if self.mark else None,
            "path": format_path(self.path),
            "hint": self.hint,
            "details": list(self.details),
            "environments": list(self.envs),
            "related": [r.to_json() for r in self.related],
        }


def format_path(path: Sequence[PathPart]) -> str:
    """Render a key path the way the README documents it: ``clusters[0].node_pools[1].name``."""
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif out:
            out.append(f".{part}")
        else:
            out.append(part)
    return "".join(out)


def with_article(word: str) -> str:
    """``word`` with its indefinite article; names in capitals are read letter by letter (an EKS)."""
    vowel_sound = word[:1] in "AEFHILMNORSX" if word[:2].isupper() else word[:1] in "aeiou"
    return f"{'an' if vowel_sound else 'a'} {word}"


def sort_diagnostics(diags: Iterable[Diagnostic], all_envs: Sequence[str] = ()) -> list[Diagnostic]:
    """Sort by file (base spec first), line and column; merge duplicates.

    A problem in the base spec is found once per environment that loads it; a person needs
    to read it once, with the environments it affects (none listed when it is all of them).
    """
    merged: dict[tuple[object, ...], Diagnostic] = {}
    for diag in diags:
        key = (
            diag.severity,
            diag.message,
            diag.mark,
            diag.path,
            diag.hint,
            diag.details,
            diag.related,
        )
        if key in merged:
            envs = tuple(dict.fromkeys((*merged[key].envs, *diag.envs)))
            merged[key] = replace(merged[key], envs=envs)
        else:
            merged[key] = diag
    out = []
    for diag in sorted(merged.values(), key=Diagnostic.sort_key):
        if all_envs and set(diag.envs) >= set(all_envs):
            diag = replace(diag, envs=())
        out.append(diag)
    return out
