"""Unified diffs: made by difflib, applied exactly (every context line must match).

The vendor lock records an accepted local edit as the unified diff from the pristine release
to the accepted text, so a reviewer reads the edit itself in the lock, and ``--check`` can
show what changed since.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

NO_EOL = "\\ No newline at end of file"
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(ValueError):
    """A patch does not apply to the text it was made from."""


def unified(old: str, new: str, old_name: str, new_name: str) -> list[str]:
    """The unified diff of two texts, as lines without line ends (empty when equal)."""
    out: list[str] = []
    for line in difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), old_name, new_name
    ):
        if line.endswith("\n"):
            out.append(line[:-1])
        else:
            out += [line, NO_EOL]
    return out


def apply(old: str, patch: Sequence[str]) -> str:
    """``old`` with ``patch`` (from ``unified``) applied.

    Raises:
        PatchError: A hunk's context or removed lines are not in ``old``.
    """
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    cursor = 0
    i = 0
    while i < len(patch) and not patch[i].startswith("@@"):
        i += 1  # the --- / +++ header
    while i < len(patch):
        match = _HUNK.match(patch[i])
        if match is None:
            raise PatchError(f"not a hunk header: {patch[i]!r}")
        start = int(match.group(1)) - (0 if match.group(2) == "0" else 1)
        out += lines[cursor:start]
        cursor = start
        i += 1
        while i < len(patch) and not patch[i].startswith("@@"):
            line = patch[i]
            eol = "" if i + 1 < len(patch) and patch[i + 1] == NO_EOL else "\n"
            body = line[1:] + eol
            if line[:1] in (" ", "-"):
                if cursor >= len(lines) or lines[cursor] != body:
                    raise PatchError(f"line {cursor + 1} does not match the patch")
                cursor += 1
                if line[:1] == " ":
                    out.append(body)
            elif line[:1] == "+":
                out.append(body)
            elif line != NO_EOL:
                raise PatchError(f"not a patch line: {line!r}")
            i += 1
    out += lines[cursor:]
    return "".join(out)
