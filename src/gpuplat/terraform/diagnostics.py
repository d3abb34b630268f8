"""Terraform's own diagnostics, typed, from ``-json`` streams and ``validate -json``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gpuplat.terraform.decoded import (
    JsonObject,
    as_object,
    get_int,
    get_list,
    get_object,
    get_opt_str,
    get_str,
    loads,
)

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Snippet:
    """The source line terraform quotes under a diagnostic."""

    code: str
    start_line: int
    context: str | None = None
    values: tuple[str, ...] = ()
    """Terraform's "x is y" notes on the values involved, already phrased as sentences."""


@dataclass(frozen=True, slots=True)
class TerraformDiagnostic:
    """One error or warning terraform reported, with where it points in the root module."""

    severity: Severity
    summary: str
    detail: str = ""
    filename: str | None = None
    """Relative to the root module terraform ran in, as terraform reports it."""
    line: int | None = None
    column: int | None = None
    address: str | None = None
    snippet: Snippet | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def location(self, root: Path | None = None) -> str | None:
        """``file:line:col`` (file joined to ``root`` when given), or None without a range."""
        if self.filename is None:
            return None
        name = str(root / self.filename) if root is not None else self.filename
        if self.line is None:
            return name
        return f"{name}:{self.line}:{self.column or 1}"

    def to_lines(self, root: Path | None = None) -> list[str]:
        """The diagnostic as plain lines in gpuplat's house style (no colour, no box drawing).

        Args:
            root: The root module directory, so file positions read from where gpuplat runs.
        """
        lines = [f"{'Error' if self.is_error else 'Warning'}: {self.summary}"]
        where = "  ".join(p for p in (self.location(root), self.address) if p)
        if where:
            lines.append(f"  {where}")
        if self.snippet is not None:
            lines.append(f"    {self.snippet.start_line} | {self.snippet.code}")
            lines.extend(f"      {value}" for value in self.snippet.values)
        lines.extend(f"  {text}" if text else "" for text in self.detail.rstrip().splitlines())
        return lines

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "summary": self.summary,
            "detail": self.detail,
            "file": self.filename,
            "line": self.line,
            "column": self.column,
            "address": self.address,
        }


@dataclass(frozen=True, slots=True)
class ValidateResult:
    """What ``terraform validate -json`` said about a root module."""

    valid: bool
    diagnostics: tuple[TerraformDiagnostic, ...]

    @property
    def errors(self) -> tuple[TerraformDiagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> tuple[TerraformDiagnostic, ...]:
        return tuple(d for d in self.diagnostics if not d.is_error)


def diagnostic_from_json(value: object) -> TerraformDiagnostic:
    """Build a diagnostic from the object terraform puts under ``diagnostic`` (or in validate).

    Unknown severities are treated as errors: terraform never reports a new kind as harmless.
    """
    data = as_object(value)
    severity: Severity = "warning" if get_str(data, "severity") == "warning" else "error"
    start = get_object(get_object(data, "range"), "start")
    return TerraformDiagnostic(
        severity=severity,
        summary=get_str(data, "summary"),
        detail=get_str(data, "detail"),
        filename=get_opt_str(get_object(data, "range"), "filename"),
        line=get_int(start, "line"),
        column=get_int(start, "column"),
        address=get_opt_str(data, "address"),
        snippet=_snippet(get_object(data, "snippet")),
    )


def _snippet(data: JsonObject) -> Snippet | None:
    start_line = get_int(data, "start_line")
    if start_line is None:
        return None
    values = tuple(
        f"{get_str(as_object(v), 'traversal')} {get_str(as_object(v), 'statement')}".strip()
        for v in get_list(data, "values")
    )
    return Snippet(
        code=get_str(data, "code"),
        start_line=start_line,
        context=get_opt_str(data, "context"),
        values=values,
    )


def parse_validate(text: str) -> ValidateResult:
    """Parse the single JSON document ``terraform validate -json`` prints.

    Raises:
        ValueError: The text is not the JSON document validate prints.
    """
    data = as_object(loads(text))
    if "valid" not in data:
        raise ValueError("not a `terraform validate -json` document")
    diagnostics = tuple(diagnostic_from_json(d) for d in get_list(data, "diagnostics"))
    return ValidateResult(valid=data.get("valid") is True, diagnostics=diagnostics)
