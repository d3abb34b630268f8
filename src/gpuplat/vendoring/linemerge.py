"""Three-way merge of lines (diff3), the fallback inside a block both sides changed.

Two two-way diffs (base -> ours, base -> theirs, by difflib) give the base lines both sides
kept; between two such stable lines, a stretch changed on one side only takes that side, and a
stretch changed on both sides differently is a conflict. The well-known implementations are
GPL-licensed (merge3, GNU diff3), which gpuplat's Apache-2.0 licence cannot take in as a
library, and git is not everywhere gpuplat runs; the algorithm is short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher


@dataclass(frozen=True)
class Clash:
    """A stretch both sides changed differently."""

    base: tuple[str, ...]
    ours: tuple[str, ...]
    theirs: tuple[str, ...]


Piece = tuple[str, ...] | Clash
"""Merged lines, or a clash."""


def _matches(base: Sequence[str], other: Sequence[str]) -> dict[int, int]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    out: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for n in range(block.size):
            out[block.a + n] = block.b + n
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
