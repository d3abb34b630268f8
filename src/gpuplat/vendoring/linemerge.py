"""Three-way merge of lines (diff3), the fallback inside a block both sides changed.

Two two-way diffs (base -> ours, base -> theirs) give the base lines both sides kept; between two such stable lines, a stretch changed on one side only takes that side, and a
stretch changed on both sides differently is a conflict. The well-known implementations are
GPL-licensed (merge3, GNU diff3), which gpuplat's Apache-2.0 licence cannot take in as a
library, and git is not everywhere gpuplat runs; the algorithm is short.

The two-way diffs are minimal (a longest common subsequence, ties resolved towards the earliest
match): difflib's longest-block heuristic is not minimal, and a needlessly long edit script makes
a clean merge differ from what git and diff3 produce (base ``a b a a``, theirs ``a a a`` read as
"delete ``a b``, append ``a``" instead of "delete ``b``"). Blocks are short, so the quadratic
table costs nothing that matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Clash:
    """A stretch both sides changed differently."""

    base: tuple[str, ...]
    ours: tuple[str, ...]
    theirs: tuple[str, ...]


Piece = tuple[str, ...] | Clash
"""Merged lines, or a clash."""


def _matches(base: Sequence[str], other: Sequence[str]) -> dict[int, int]:
    """Base line -> other line for a longest common subsequence, earliest matches first."""
    n, m = len(base), len(other)
    # longest[i][j]: the LCS length of base[i:] and other[j:].
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = longest[i], longest[i + 1]
        for j in range(m - 1, -1, -1):
            if base[i] == other[j]:
                row[j] = below[j + 1] + 1
            else:
                row[j] = max(below[j], row[j + 1])
    out: dict[int, int] = {}
    i = j = 0
    while i < n and j < m:
        if base[i] == other[j] and longest[i][j] == longest[i + 1][j + 1] + 1:
            out[i] = j
            i, j = i + 1, j + 1
        elif longest[i + 1][j] >= longest[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def merge_lines(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> list[Piece]:
    """Merge ``ours`` and ``theirs``, both changed from ``base``; clashes are kept as such."""
    to_ours, to_theirs = _matches(base, ours), _matches(base, theirs)
    stable = [i for i in range(len(base)) if i in to_ours and i in to_theirs]
    pieces: list[Piece] = []
    b = o = t = 0
    for s in [*stable, len(base)]:
        end = s == len(base)
        os_, ts = (len(ours), len(theirs)) if end else (to_ours[s], to_theirs[s])
        chunk_b, chunk_o, chunk_t = tuple(base[b:s]), tuple(ours[o:os_]), tuple(theirs[t:ts])
        if chunk_b or chunk_o or chunk_t:
            if chunk_o == chunk_t or chunk_t == chunk_b:
                pieces.append(chunk_o)
            elif chunk_o == chunk_b:
                pieces.append(chunk_t)
            else:
                pieces.append(Clash(chunk_b, chunk_o, chunk_t))
        if end:
            break
        pieces.append((base[s],))
        b, o, t = s + 1, os_ + 1, ts + 1
    return pieces


def clean(pieces: Sequence[Piece]) -> tuple[str, ...] | None:
    """The merged lines, or None when a clash is among the pieces."""
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, Clash):
            return None
        out.extend(piece)
    return tuple(out)
