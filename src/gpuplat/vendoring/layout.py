"""Where the blocks and attributes of a Terraform file are, line by line.

python-hcl2 parses the text; its lark tree carries the first and last line of every block and
attribute, which is all a merge needs: an item is the whole lines it spans, and the comments
and blank lines above it (its ``lead``) travel with it. A body whose items share a line with
each other or with the braces around them (``x { a = 1 }``) is not split: it stays one piece
of text, and a merge treats it as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from hcl2.api import parses
from hcl2.rules.base import AttributeRule, BlockRule, BodyRule
from hcl2.utils import SerializationOptions

_NAMES = SerializationOptions(with_comments=False, strip_string_quotes=True)


class LayoutError(Exception):
    """The text is not HCL that python-hcl2 can read.

    Attributes:
        line: 1-based line of the problem (1 when the parser does not say).
    """

    def __init__(self, message: str, line: int) -> None:
        """Create the error with the parser's first line of message and the line."""
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Item:
    """A block or an attribute and the lines it spans (0-based, ``last`` inclusive)."""

    kind: Literal["block", "attribute"]
    type: str
    """The block type (``resource``) or the attribute name."""
    labels: tuple[str, ...]
    first: int
    last: int
    children: tuple[Item, ...] | None
    """A block's items, or None when its body cannot be split into whole lines."""
    node: AttributeRule | BlockRule

    @property
    def address(self) -> str:
        """How a person names it: ``resource "aws_eks_node_group" "this"``, ``tags``."""
        if self.kind == "attribute":
            return self.type
        return " ".join([self.type, *(f'"{label}"' for label in self.labels)])


@dataclass(frozen=True)
class Unit:
    """One item with the lines above it that belong to it, under a key unique in its body."""

    key: str
    start: int
    """0-based line where its lead begins."""
    lead: tuple[str, ...]
    item: Item | None
    """None for the tail: what follows the last item."""
    lines: tuple[str, ...]
    """The item's own lines."""

    @property
    def text(self) -> str:
        return "".join(self.lead) + "".join(self.lines)


def parse(text: str) -> tuple[list[str], tuple[Item, ...]]:
    """The lines of ``text`` (with their line ends) and its top-level items.

    Raises:
        LayoutError: The text is not valid HCL.
    """
    try:
        start = parses(text)
    except Exception as exc:  # lark raises several unrelated exception types
        line = getattr(exc, "line", 1)
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise LayoutError(message, line if isinstance(line, int) and line > 0 else 1) from exc
    return text.splitlines(keepends=True), _items(start.body)


def _span(node: AttributeRule | BlockRule) -> tuple[int, int]:
    meta = node._meta  # python-hcl2 keeps lark's positions here
    return int(meta.line) - 1, int(meta.end_line) - 1


def _items(body: BodyRule) -> tuple[Item, ...]:
    out: list[Item] = []
    for child in body.children:
        if isinstance(child, AttributeRule):
            first, last = _span(child)
            name = str(child.identifier.serialize(_NAMES))
            out.append(Item("attribute", name, (), first, last, None, child))
        elif isinstance(child, BlockRule):
            first, last = _span(child)
            names = [str(label.serialize(_NAMES)) for label in child.labels]
            inner = _items(child.body)
            splittable = all(first < i.first and i.last < last for i in inner) and _apart(inner)
            out.append(
                Item(
                    "block",
                    names[0],
                    tuple(names[1:]),
                    first,
                    last,
                    inner if splittable else None,
                    child,
                )
            )
    return tuple(out)


def _apart(items: tuple[Item, ...]) -> bool:
    return all(a.last < b.first for a, b in pairwise(items))


def units(lines: list[str], items: tuple[Item, ...], start: int, end: int) -> list[Unit] | None:
    """The units of the body between lines ``start`` and ``end`` (exclusive), tail last.

    Returns:
        None when two items share a line: the body cannot be split into whole lines.
    """
    if not _apart(items):
        return None
    seen: dict[str, int] = {}
    out: list[Unit] = []
    cursor = start
    for item in items:
        base = _key(item)
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base}#{seen[base]}"
        out.append(
            Unit(
                key,
                cursor,
                tuple(lines[cursor : item.first]),
                item,
                tuple(lines[item.first : item.last + 1]),
            )
        )
        cursor = item.last + 1
    out.append(Unit("<end>", cursor, tuple(lines[cursor:end]), None, ()))
    return out


def _key(item: Item) -> str:
    if item.kind == "attribute":
        return f"={item.type}"
    return ".".join([item.type, *item.labels])


def file_units(text: str) -> list[Unit] | None:
    """The top-level units of a whole file, or None when it cannot be split.

    Raises:
        LayoutError: The text is not valid HCL.
    """
    lines, items = parse(text)
    return units(lines, items, 0, len(lines))


def block_units(lines: list[str], item: Item) -> list[Unit] | None:
    """The units inside a block's braces (``lines``: the whole file), or None if not split."""
    if item.children is None:
        return None
    return units(lines, item.children, item.first + 1, item.last)
