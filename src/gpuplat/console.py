"""Where output goes: stderr for people, stdout for data; colour only on a terminal."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import TextIO

from gpuplat.errors import GpuplatError, SpecError
from gpuplat.spec.diagnostics import Diagnostic, Severity, format_path

_CODES = {"bold": "1", "red": "31", "yellow": "33", "green": "32", "cyan": "36", "dim": "2"}


def wants_color(stream: TextIO) -> bool:
    """Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Console:
    """A tiny output facade: ``say`` for people (stderr), ``data`` for machines (stdout)."""

    def __init__(
        self,
        out: TextIO | None = None,
        err: TextIO | None = None,
        *,
        color: bool | None = None,
        quiet: bool = False,
    ) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.color = wants_color(self.err) if color is None else color
        self.quiet = quiet

    @property
    def interactive(self) -> bool:
        isatty = getattr(self.err, "isatty", None)
        return bool(isatty and isatty())

    def style(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def say(self, text: str = "") -> None:
        if not self.quiet:
            print(text, file=self.err, flush=True)

    def data(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def json(self, value: object) -> None:
        self.data(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))

    def diagnostics(self, diags: Iterable[Diagnostic], *, strict: bool = False) -> None:
        """Print each diagnostic as an Error:/Warning: block, then a one-line count."""
        diags = list(diags)
        errors = sum(1 for d in diags if d.is_error)
        warnings = len(diags) - errors
        for diag in diags:
            print(self.format_diagnostic(diag, strict=strict), file=self.err)
            print(file=self.err)
        if diags:
            parts = []
            if errors:
                parts.append(f"{errors} error{'s' if errors != 1 else ''}")
            if warnings:
                suffix = " (errors under --strict)" if strict else ""
                parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}{suffix}")
            print(self.style(", ".join(parts), "bold"), file=self.err, flush=True)

    def format_diagnostic(self, diag: Diagnostic, *, strict: bool = False) -> str:
        if diag.severity is Severity.ERROR:
            head = self.style("Error:", "bold", "red")
        else:
            head = self.style("Warning:", "bold", "yellow")
        lines = [f"{head} {diag.message}"]
        where = str(diag.mark) if diag.mark else ""
        path = format_path(diag.path)
        envs = f"  (in {', '.join(diag.envs)})" if diag.envs else ""
        if where or path:
            lines.append("  " + self.style(where, "cyan") + ("  " + path if path else "") + envs)
        for other in diag.related:
            lines.append(
                "  "
                + self.style(str(other.mark), "cyan")
                + f"  {format_path(other.path)}  ({other.note})"
            )
        lines.extend(f"  {detail}" for detail in diag.details)
        if diag.hint:
            lines.append(f"{self.style('Hint:', 'bold')} {diag.hint}")
        return "\n".join(lines)

    def error(self, exc: GpuplatError, *, strict: bool = False) -> None:
        """Report any gpuplat error in the one house style."""
        if isinstance(exc, SpecError) and exc.diagnostics:
            self.diagnostics(exc.diagnostics, strict=strict)
            return
        lines = [f"{self.style('Error:', 'bold', 'red')} {exc.message}"]
        lines.extend(f"  {detail}" for detail in exc.details)
        if exc.hint:
            lines.append(f"{self.style('Hint:', 'bold')} {exc.hint}")
        print("\n".join(lines), file=self.err, flush=True)
