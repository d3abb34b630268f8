"""Write spec values as HCL: the one string quoter, identifier checks and expressions."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Final

from gpuplat.hcl.quoting import IDENT, MEMO_SIZE, QUOTED, Raw, ident, quote, raw

__all__ = ["JINJA_FILTERS", "Raw", "expr", "ident", "quote", "raw"]

_NOT_ASCII: Final = re.compile(r"[^\x00-\x7f]")

# HCL keywords, always quoted as object keys. Terraform does read `true`,
# `null`, `in` and `if` as plain keys, but a leading `for` opens a
# for-expression instead; quoting the whole set is always correct and leaves
# no reader (python-hcl2, editors) room for a different interpretation.
_KEYWORDS: Final = frozenset(
    {"true", "false", "null", "for", "in", "if", "else", "endif", "endfor"}
)
# A list of scalars stays on one line while the line is at most this wide.
_INLINE_WIDTH: Final = 80

_KEYS: dict[str, str] = {}
_SEGMENTS: dict[tuple[object, ...], str] = {}


def expr(value: object, indent: int = 0) -> str:
    """Write a Python value as an HCL expression, already ``terraform fmt`` clean.

    ``None`` becomes ``null``; booleans ``true``/``false``; ints decimal; floats
    their shortest round-tripping form (``0.1``, ``1e+16``); strings go through
    quote(); Raw is copied verbatim. Lists and tuples stay on one line when all
    elements are scalars and the line is short, else they get one element per
    line with a trailing comma. Mappings become objects with one ``key = value``
    per line, keys sorted, ``=`` aligned like ``terraform fmt`` does; a key is
    bare only when it is an identifier that HCL cannot misread, and a quoted key
    spells every non-ASCII character as a ``\\u`` escape.

    Args:
        value: the value to write.
        indent: nesting level (two spaces each) of the line the expression starts
            on; continuation lines are indented to match.

    Returns:
        The expression text; multi-line results carry no trailing newline.

    Raises:
        TypeError: for a value, or a mapping key, of an unsupported type.
        ValueError: for a NaN or infinite float, a negative ``indent``, or a
            string that quote() rejects.
    """
    if isinstance(indent, bool) or not isinstance(indent, int):
        raise TypeError(f"expr(): indent must be an int, not {type(indent).__name__}")
    if indent < 0:
        raise ValueError(f"expr(): indent must not be negative, got {indent}")
    return _expr(value, indent)


def _expr(value: object, level: int) -> str:
    kind = type(value)
    if kind is str:
        return QUOTED.get(value) or quote(value)  # type: ignore[call-overload,arg-type]
    if isinstance(value, Raw):
        return value.text
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)  # not repr(): an IntEnum would print its name
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"expr(): {value!r} has no HCL representation")
        return float.__repr__(value)
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, Mapping):
        return _object(value, level)
    if isinstance(value, list | tuple):
        return _tuple(value, level)
    raise TypeError(f"expr(): cannot write a {type(value).__name__} as HCL")


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str | Raw)


def _tuple(items: list[object] | tuple[object, ...], level: int) -> str:
    if not items:
        return "[]"
    if all(_is_scalar(item) for item in items):
        inline = "[" + ", ".join(_expr(item, level) for item in items) + "]"
        if 2 * level + len(inline) <= _INLINE_WIDTH:
            return inline
    pad = "  " * (level + 1)
    lines = ["[", *(f"{pad}{_expr(item, level + 1)}," for item in items), "  " * level + "]"]
    return "\n".join(lines)


def _key(key: object) -> str:
    known = _KEYS.get(key) if type(key) is str else None
    if known is not None:
        return known
    text = _new_key(key)
    if type(key) is str and len(_KEYS) < MEMO_SIZE:
        _KEYS[key] = text
    return text


def _new_key(key: object) -> str:
    if not isinstance(key, str):
        raise TypeError(f"expr(): object keys must be str, not {type(key).__name__}")
    if IDENT.fullmatch(key) and key not in _KEYWORDS:
        return str.__str__(key)
    # terraform fmt lines up `=` by the keys' widths in grapheme clusters. A key written in
    # ASCII alone (other characters as \u escapes, which Terraform reads back as the same
    # text) is as wide as it is long, so the alignment below needs no Unicode tables.
    return _NOT_ASCII.sub(_unicode_escape, quote(key))


def _unicode_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _object(mapping: Mapping[object, object], level: int) -> str:
    if not mapping:
        return "{}"
    frozen = _frozen(mapping)
    memo = (level, frozen) if frozen is not None else None
    if memo is not None:
        known = _SEGMENTS.get(memo)
        if known is not None:
            return known
    names = {key: _key(key) for key in mapping}  # checks every key is a str
    entries = [(names[key], mapping[key]) for key in sorted(names, key=str.__str__)]
    text = "\n".join(["{", *_aligned(entries, level + 1), "  " * level + "}"])
    if memo is not None and len(_SEGMENTS) < MEMO_SIZE:
        _SEGMENTS[memo] = text
    return text


# float is left out: ``0.0 == -0.0`` with one hash, yet they are written differently.
_SCALARS: Final = frozenset({str, int, bool, type(None), Raw})


def _frozen(mapping: Mapping[object, object]) -> tuple[object, ...] | None:
    """A hashable stand-in for a mapping of scalars (None when a value is not a scalar).

    Types are part of it: ``True == 1`` and ``1 == 1.0``, but they are written differently.
    """
    out: list[object] = []
    for key, value in mapping.items():
        kind = type(value)
        if kind not in _SCALARS or type(key) is not str:
            return None
        out += (key, kind, value)
    return tuple(out)


def attributes(
    mapping: Mapping[str, object], indent: int = 1, comments: Mapping[str, str] | None = None
) -> str:
    """Write ``name = value`` lines in the mapping's order, aligned as ``terraform fmt`` does.

    For argument lists of blocks (module calls, resources) whose names are chosen by gpuplat;
    values go through expr(). A name in ``comments`` gets a ``#`` comment line above it, which
    ends the alignment run before it, as a comment line does for terraform fmt.

    Raises:
        ValueError: A name is not an identifier.
    """
    if comments:
        entries = [(ident(name), value) for name, value in mapping.items()]
        lines = _aligned(entries, indent, {ident(k): v for k, v in comments.items()})
        return "\n".join(lines)
    # A non-empty object value always spans lines, so it ends the alignment run: the lines up
    # to it do not depend on the entries after it. Each such segment is written once per
    # distinct value and reused (the same pool in every environment, the same settings in
    # many pools).
    texts: list[str] = []
    segment: list[tuple[str, object]] = []
    frozen: list[object] = [indent]
    for name, value in mapping.items():
        segment.append((name, value))
        frozen += (name, _freeze(value))
        if value and (type(value) is dict or isinstance(value, Mapping)):
            texts.append(_segment(segment, frozen, indent))
            segment, frozen = [], [indent]
    if segment:
        texts.append(_segment(segment, frozen, indent))
    return "\n".join(texts)


def _segment(entries: list[tuple[str, object]], frozen: list[object], indent: int) -> str:
    key = tuple(frozen) if _UNFROZEN not in frozen else None
    if key is not None:
        known = _SEGMENTS.get(key)
        if known is not None:
            return known
    text = "\n".join(_aligned([(ident(name), value) for name, value in entries], indent))
    if key is not None and len(_SEGMENTS) < MEMO_SIZE:
        _SEGMENTS[key] = text
    return text


_UNFROZEN: Final = object()
"""What _freeze() gives for a value it cannot stand in for (the segment is then not reused)."""


def _freeze(value: object) -> object:
    """A hashable stand-in for a value, equal only for values written alike."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if kind is dict:
        out: list[object] = [dict]
        for key, item in value.items():  # type: ignore[attr-defined]
            frozen = _freeze(item)
            if frozen is _UNFROZEN or type(key) is not str:
                return _UNFROZEN
            out += (key, frozen)
        return tuple(out)
    if kind is list or kind is tuple:
        items = [_freeze(item) for item in value]  # type: ignore[attr-defined]
        return _UNFROZEN if _UNFROZEN in items else (list, *items)
    return _UNFROZEN


def _aligned(
    entries: list[tuple[str, object]], level: int, comments: Mapping[str, str] | None = None
) -> list[str]:
    pad = "  " * level
    lines: list[str] = []
    run: list[tuple[str, str]] = []  # consecutive one-line entries share one `=` column

    def flush() -> None:
        if run:
            widths = [len(name) for name, _ in run]  # names are ASCII: see _key()
            widest = max(widths)
            for (name, text), width in zip(run, widths, strict=True):
                lines.append(f"{pad}{name}{' ' * (widest - width + 1)}= {text}")
            run.clear()

    for name, value in entries:
        if comments and name in comments:
            flush()
            lines.append(f"{pad}# {_one_line(comments[name])}")
        text = _expr(value, level)
        if "\n" in text:
            # A value that opens a bracket and closes it lines later ends the
            # alignment run, exactly as it does for terraform fmt.
            flush()
            lines.append(f"{pad}{name} = {text}")
        else:
            run.append((name, text))
    flush()
    return lines


def _one_line(text: str) -> str:
    """Comment text on one line: no breaks or control characters can end the comment."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


JINJA_FILTERS: Final[dict[str, Callable[..., str]]] = {
    "q": quote,
    "hcl": expr,
    "ident": ident,
    "attributes": attributes,
}
