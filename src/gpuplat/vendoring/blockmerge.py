"""Three-way merge of Terraform files by blocks and attributes.

base is the pristine old version, ours the repository's copy, theirs the pristine new version.
Top-level blocks (and inside a block changed on both sides, its attributes and nested blocks)
are matched by address, so an edit to one block and an upstream change to another never meet.
Only an item changed on both sides is merged line by line (``linemerge``); where that clashes
too, the result holds a ``Conflict`` naming the block and both versions.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat.vendoring.layout import LayoutError, Unit, block_units, file_units, parse
from gpuplat.vendoring.linemerge import Clash, clean, merge_lines


@dataclass(frozen=True)
class Conflict:
    """A part both sides changed differently."""

    where: tuple[str, ...]
    """Addresses from the top-level block down, e.g. ``('variable "labels"', 'default')``."""
    line: int
    """1-based line in ours (the repository's copy) where the part starts."""
    base: str
    ours: str
    theirs: str

    @property
    def address(self) -> str:
        return " > ".join(self.where) or "(whole file)"


Part = str | Conflict


@dataclass(frozen=True)
class Merged:
    """The merge of one file: its text where clean, conflicts where not."""

    parts: tuple[Part, ...]

    @property
    def conflicts(self) -> tuple[Conflict, ...]:
        return tuple(p for p in self.parts if isinstance(p, Conflict))

    def text(self, ours_name: str = "yours", theirs_name: str = "theirs") -> str:
        """The merged text; conflicts written with diff3-style markers."""
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            out += [f"<<<<<<< {ours_name}\n", _ended(part.ours), "||||||| base\n"]
            out += [_ended(part.base), "=======\n", _ended(part.theirs), f">>>>>>> {theirs_name}\n"]
        return "".join(out)


def _ended(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


@dataclass(frozen=True)
class _Side:
    lines: list[str]
    units: dict[str, Unit]
    order: list[str]


def merge_text(base: str, ours: str, theirs: str) -> Merged:
    """Merge any text line by line (README, CHANGELOG)."""
    return Merged(tuple(_lines(base, ours, theirs, (), 1)))


def merge_terraform(base: str, ours: str, theirs: str) -> Merged:
    """Merge a .tf file by blocks and attributes; line by line if one side cannot be split."""
    sides = []
    for text in (base, ours, theirs):
        try:
            lines, _ = parse(text)
            found = file_units(text)
        except LayoutError:
            found = None
        if found is None:
            return merge_text(base, ours, theirs)
        sides.append(_Side(lines, {u.key: u for u in found}, [u.key for u in found]))
    return Merged(tuple(_merge(sides[0], sides[1], sides[2], ())))


def _order(ours: list[str], theirs: list[str]) -> list[str]:
    """Theirs' order, with what only ours has after its nearest predecessor in ours."""
    out = list(theirs)
    for i, key in enumerate(ours):
        if key in out:
            continue
        before = next((ours[j] for j in range(i - 1, -1, -1) if ours[j] in out), None)
        out.insert(out.index(before) + 1 if before is not None else 0, key)
    return out


def _merge(b: _Side, o: _Side, t: _Side, where: tuple[str, ...]) -> list[Part]:
    parts: list[Part] = []
    for key in _order(o.order, t.order):
        bu, ou, tu = b.units.get(key), o.units.get(key), t.units.get(key)
        btext = bu.text if bu else None
        otext = ou.text if ou else None
        ttext = tu.text if tu else None
        if otext == ttext or ttext == btext:
            parts.append(otext or "")
        elif otext == btext:
            parts.append(ttext or "")
        elif ou is None or tu is None:
            kept = ou or tu
            assert kept is not None
            here = (*where, _name(kept))
            line = ou.start + 1 if ou else _line_near(o, key)
            parts.append(Conflict(here, line, btext or "", otext or "", ttext or ""))
        else:
            parts += _both(b, o, t, bu, ou, tu, where)
    return parts


def _name(unit: Unit) -> str:
    return unit.item.address if unit.item else "(end of body)"


def _line_near(side: _Side, key: str) -> int:
    return 1 if not side.order else side.units[side.order[-1]].start + 1


def _both(
    b: _Side, o: _Side, t: _Side, bu: Unit | None, ou: Unit, tu: Unit, where: tuple[str, ...]
) -> list[Part]:
    """Both sides changed one unit: its lead by lines, its item by parts or by lines."""
    here = (*where, _name(ou))
    parts = _lines(
        "".join(bu.lead) if bu else "", "".join(ou.lead), "".join(tu.lead), here, ou.start + 1
    )
    if ou.item is None or tu.item is None:
        return parts
    inner = [
        block_units(side.lines, unit.item) if unit.item else None
        for side, unit in ((o, ou), (t, tu))
    ]
    base_inner = block_units(b.lines, bu.item) if bu and bu.item else None
    heads = (ou.lines[0], tu.lines[0], ou.lines[-1], tu.lines[-1])
    if (
        bu is not None
        and base_inner is not None
        and inner[0] is not None
        and inner[1] is not None
        and heads == (bu.lines[0], bu.lines[0], bu.lines[-1], bu.lines[-1])
    ):
        sides = [
            _Side(side.lines, {u.key: u for u in found}, [u.key for u in found])
            for side, found in ((b, base_inner), (o, inner[0]), (t, inner[1]))
        ]
        return [*parts, ou.lines[0], *_merge(sides[0], sides[1], sides[2], here), ou.lines[-1]]
    base_lines = "".join(bu.lines) if bu else ""
    return parts + _lines(base_lines, "".join(ou.lines), "".join(tu.lines), here, ou.item.first + 1)


def _lines(base: str, ours: str, theirs: str, where: tuple[str, ...], line: int) -> list[Part]:
    pieces = merge_lines(
        base.splitlines(keepends=True),
        ours.splitlines(keepends=True),
        theirs.splitlines(keepends=True),
    )
    merged = clean(pieces)
    if merged is not None:
        return ["".join(merged)]
    out: list[Part] = []
    offset = 0
    for piece in pieces:
        if isinstance(piece, Clash):
            out.append(
                Conflict(
                    where,
                    line + offset,
                    "".join(piece.base),
                    "".join(piece.ours),
                    "".join(piece.theirs),
                )
            )
            offset += len(piece.ours)
        else:
            out.append("".join(piece))
            offset += len(piece)
    return out
