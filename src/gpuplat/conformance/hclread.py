"""Parse .tf files with python-hcl2 into a small typed tree that keeps line numbers."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hcl2.api import parses
from hcl2.rules.base import AttributeRule, BlockRule, BodyRule
from hcl2.utils import SerializationOptions

_NAMES = SerializationOptions(with_comments=False, strip_string_quotes=True)
_VALUES = SerializationOptions(with_comments=False)


class HclParseError(Exception):
    """A file is not valid HCL.

    Attributes:
        line: The 1-based line of the error, or 1 when unknown.
    """

    def __init__(self, message: str, line: int) -> None:
        """Create the error.

        Args:
            message: The parser's message, first line only.
            line: The 1-based line of the error.
        """
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Attribute:
    """One ``name = value`` argument.

    ``value`` is python-hcl2's serialised form: ``'"text"'`` for a literal string (quotes kept),
    ``"${expr}"`` for an expression, and dicts/lists/numbers/bools/None for literals.
    """

    name: str
    line: int
    value: object
    expression: object = field(default=None, compare=False, repr=False)
    """python-hcl2's rule tree of the value (:mod:`gpuplat.conformance.hclvalue` reads it)."""


@dataclass(frozen=True)
class Block:
    """One block: its type, labels (unquoted), first line and body."""

    type: str
    labels: tuple[str, ...]
    line: int
    body: Body


@dataclass(frozen=True)
class Body:
    """The attributes and blocks of a file or a block body, in source order."""

    attributes: tuple[Attribute, ...]
    blocks: tuple[Block, ...]

    def attribute(self, name: str) -> Attribute | None:
        """Return the first attribute called ``name``, if any."""
        return next((a for a in self.attributes if a.name == name), None)

    def blocks_of(self, type_: str) -> tuple[Block, ...]:
        """Return the blocks of one type."""
        return tuple(b for b in self.blocks if b.type == type_)


def literal_string(value: object) -> str | None:
    """Return the text of a literal string value without interpolation, else None."""
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        inner = value[1:-1]
        if "${" not in inner and "%{" not in inner:
            return inner
    return None


def unquote(key: str) -> str:
    """Strip the quotes of a quoted object key."""
    if len(key) >= 2 and key[0] == key[-1] == '"':
        return key[1:-1]
    return key


def _line(node: AttributeRule | BlockRule) -> int:
    line = getattr(node._meta, "line", None)  # python-hcl2 keeps lark's meta here
    return line if isinstance(line, int) else 1


def _value(node: AttributeRule) -> object:
    try:
        return node.expression.serialize(_VALUES)
    except Exception:  # pragma: no cover - serialisation of exotic expressions
        return "${...}"


def _body(rule: BodyRule) -> Body:
    attributes: list[Attribute] = []
    blocks: list[Block] = []
    for child in rule.children:
        if isinstance(child, AttributeRule):
            name = str(child.identifier.serialize(_NAMES))
            attributes.append(Attribute(name, _line(child), _value(child), child.expression))
        elif isinstance(child, BlockRule):
            labels = tuple(str(label.serialize(_NAMES)) for label in child.labels)
            blocks.append(Block(labels[0], labels[1:], _line(child), _body(child.body)))
    return Body(tuple(attributes), tuple(blocks))


def parse_text(text: str) -> Body:
    """Parse HCL text.

    Args:
        text: The contents of a .tf file.

    Returns:
        The top-level body.

    Raises:
        HclParseError: When the text is not valid HCL.
    """
    try:
        start = parses(text)
    except Exception as exc:  # lark raises several unrelated exception types
        line = getattr(exc, "line", 1)
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise HclParseError(message, line if isinstance(line, int) and line > 0 else 1) from exc
    return _body(start.body)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise HclParseError(f"not UTF-8: {exc}", 1) from exc


class ParsedFiles:
    """The .tf files one check has parsed, by content: a file read by several passes (the file
    checker, the alias pass, the module-call check) or copied into several trees (an example's
    modules in every environment) is parsed once. The bodies are frozen; their parse trees are
    only read."""

    def __init__(self) -> None:
        """Start with nothing parsed."""
        self._bodies: dict[str, Body | HclParseError] = {}

    def body(self, path: Path) -> Body:
        """Parse one .tf file, or return the body of the same text parsed before.

        Args:
            path: The file.

        Returns:
            The top-level body.

        Raises:
            HclParseError: When the file is not valid HCL or not UTF-8.
        """
        text = _read_text(path)
        found = self._bodies.get(text)
        if found is None:
            try:
                found = parse_text(text)
            except HclParseError as exc:
                found = exc
            self._bodies[text] = found
        if isinstance(found, HclParseError):
            raise HclParseError(str(found), found.line)
        return found
