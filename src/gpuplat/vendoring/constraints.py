"""Terraform version constraints (``>= 6.50, < 7``) and whether two of them can both hold.

A constraint is a set of versions; two conflict when no version is in both. Versions are
compared as numbers, missing parts being 0 (``6.50`` is 6.50.0); pre-releases are left out.
One difference is Terraform's own: ``~> 5`` (a single part) means ``>= 5.0.0, < 6.0.0`` for a
provider (``hashicorp/go-versions``) but ``>= 5.0.0`` for ``required_version``
(``hashicorp/go-version``). The tests check both readings against the real terraform.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Version = tuple[int, int, int]
Kind = Literal["provider", "terraform"]
_ATOM = re.compile(
    r"\s*(~>|>=|<=|!=|=|>|<)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?\s*"
)
_TOP: Version = (1 << 30, 0, 0)


class ConstraintError(ValueError):
    """A constraint string Terraform would not accept."""


@dataclass(frozen=True)
class Range:
    """The versions ``low <= v < high``, except those in ``excluded``."""

    low: Version
    high: Version
    excluded: frozenset[Version] = frozenset()

    def meet(self, other: Range) -> Range:
        """The versions in both."""
        return Range(
            max(self.low, other.low), min(self.high, other.high), self.excluded | other.excluded
        )

    @property
    def empty(self) -> bool:
        if self.low >= self.high:
            return True
        # A range of one patch version that is excluded holds nothing.
        return _bump(self.low, 2) == self.high and self.low in self.excluded


def _bump(v: Version, part: int) -> Version:
    if part == 0:
        return (v[0] + 1, 0, 0)
    if part == 1:
        return (v[0], v[1] + 1, 0)
    return (v[0], v[1], v[2] + 1)


def parse(text: str, kind: Kind) -> Range:
    """The versions a constraint string allows.

    Raises:
        ConstraintError: ``text`` is not a Terraform version constraint.
    """
    found = Range((0, 0, 0), _TOP)
    atoms = text.split(",")
    if not text.strip():
        raise ConstraintError("an empty version constraint")
    for atom in atoms:
        match = _ATOM.fullmatch(atom)
        if match is None:
            raise ConstraintError(f"{atom.strip()!r} is not a version constraint")
        op, major, minor, patch, _pre = match.groups()
        parts = [p for p in (major, minor, patch) if p is not None]
        v: Version = (int(major), int(minor or 0), int(patch or 0))
        found = found.meet(_atom(op or "=", v, len(parts), kind))
    return found


def _atom(op: str, v: Version, given: int, kind: Kind) -> Range:
    low, top = (0, 0, 0), _TOP
    if op == "=":
        return Range(v, _bump(v, 2))
    if op == "!=":
        return Range(low, top, frozenset({v}))
    if op == ">=":
        return Range(v, top)
    if op == ">":
        return Range(_bump(v, 2), top)
    if op == "<":
        return Range(low, v)
    if op == "<=":
        return Range(low, _bump(v, 2))
    # ~>: only the rightmost given part may grow.
    if given == 1:
        return Range(v, _bump(v, 0) if kind == "provider" else top)
    return Range(v, _bump(v, given - 2))


def compatible(a: str, b: str, kind: Kind) -> bool:
    """Whether some version satisfies both constraint strings.

    Raises:
        ConstraintError: Either is not a version constraint.
    """
    return not parse(a, kind).meet(parse(b, kind)).empty
