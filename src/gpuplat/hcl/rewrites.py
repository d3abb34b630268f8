"""Terraform's own rewrites on top of hclwrite's layout, as token-stream edits."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from gpuplat.hcl.tokens import (
    _DELTA,
    BCOMMENT,
    CBRACE,
    CPAREN,
    CQUOTE,
    EQUAL,
    IDENT,
    LCOMMENT,
    NL,
    OBRACE,
    OPAREN,
    OQUOTE,
    QLIT,
    STRING,
    TINTERP,
    TSEQEND,
)
from gpuplat.hcl.width import _PIECES

# ---------------------------------------------------------------------------
# Terraform's own rewrites on top of hclwrite (command/fmt.go): block labels
# are re-quoted, a lone "${expr}" attribute value is unwrapped, and legacy
# variable type strings become type expressions.
# ---------------------------------------------------------------------------
_Edit = tuple[int, int, list[int], list[str]]
_LEGACY_TYPES: Final[dict[str, tuple[list[int], list[str]]]] = {
    "list": ([IDENT, OPAREN, IDENT, CPAREN], ["list", "(", "any", ")"]),
    "map": ([IDENT, OPAREN, IDENT, CPAREN], ["map", "(", "any", ")"]),
    "set": ([IDENT, OPAREN, IDENT, CPAREN], ["set", "(", "any", ")"]),
    '"string"': ([IDENT], ["string"]),
    '"list"': ([IDENT, OPAREN, IDENT, CPAREN], ["list", "(", "string", ")"]),
    '"map"': ([IDENT, OPAREN, IDENT, CPAREN], ["map", "(", "string", ")"]),
}
_SKIP: Final = frozenset([NL, LCOMMENT, BCOMMENT])


def _terraform_rewrites(kinds: list[int], texts: list[str]) -> list[_Edit]:
    """Find Terraform's structural rewrites; stop quietly at anything unexpected."""
    edits: list[_Edit] = []
    blocks: list[str] = []
    n = len(kinds)
    i = 0
    while i < n:
        kind = kinds[i]
        if kind in _SKIP:
            i += 1
        elif kind == CBRACE and blocks:
            blocks.pop()
            i += 1
        elif kind != IDENT or i + 1 >= n:
            break
        elif kinds[i + 1] == EQUAL:
            start = i + 2
            stop = _value_end(kinds, start)
            while stop > start and kinds[stop - 1] == BCOMMENT:
                stop -= 1
            if blocks == ["variable"] and texts[i] == "type":
                edit = _legacy_type(kinds, texts, start, stop)
            else:
                edit = _unwrap_interpolation(kinds, texts, start, stop)
            if edit is not None:
                edits.append(edit)
            i = stop
        else:
            j = i + 1
            while j < n and kinds[j] in (IDENT, STRING, BCOMMENT):
                j += 1
            if j >= n or kinds[j] != OBRACE:
                break
            edit = _requote_labels(kinds, texts, i + 1, j)
            if edit is not None:
                edits.append(edit)
            blocks.append(texts[i])
            i = j + 1
    return edits


def _value_end(kinds: list[int], start: int) -> int:
    """Index just past an attribute value that starts at ``start``."""
    depth = 0
    j = start
    n = len(kinds)
    while j < n:
        kind = kinds[j]
        if depth == 0 and kind in (NL, LCOMMENT):
            break
        depth += _DELTA[kind]
        if depth < 0:
            break  # the `}` of a one-line block such as `a { b = 1 }`
        j += 1
    return j


def _legacy_type(kinds: list[int], texts: list[str], start: int, stop: int) -> _Edit | None:
    if stop - start != 1 or kinds[start] not in (IDENT, STRING):
        return None
    replacement = _LEGACY_TYPES.get(texts[start])
    if replacement is None:
        return None
    return start, stop, list(replacement[0]), list(replacement[1])


def _unwrap_interpolation(
    kinds: list[int], texts: list[str], start: int, stop: int
) -> _Edit | None:
    """``x = "${expr}"`` becomes ``x = expr`` (only a lone interpolation qualifies)."""
    if (
        stop - start < 5
        or kinds[start] != OQUOTE
        or kinds[start + 1] != TINTERP
        or kinds[stop - 2] != TSEQEND
        or kinds[stop - 1] != CQUOTE
    ):
        return None
    quotes = 0
    for j in range(start + 2, stop - 2):
        kind = kinds[j]
        if kind == OQUOTE:
            quotes += 1
        elif kind == CQUOTE:
            quotes -= 1
        elif quotes == 0 and kind in (TINTERP, TSEQEND, QLIT):
            return None  # "${a}${b}" or "${a}-x": not a single expression
    first, last = start + 2, stop - 2
    while first < last and kinds[first] == NL:
        first += 1
    while last > first and kinds[last - 1] == NL:
        last -= 1
    inner_kinds = kinds[first:last]
    inner_texts = texts[first:last]
    wrapped = inner_kinds and inner_kinds[0] == OPAREN and inner_kinds[-1] == CPAREN
    if NL in inner_kinds and not wrapped:
        # A multi-line expression (e.g. a conditional) needs parentheses to parse.
        inner_kinds = [OPAREN, *inner_kinds, CPAREN]
        inner_texts = ["(", *inner_texts, ")"]
    return start, stop, inner_kinds, inner_texts


def _requote_labels(kinds: list[int], texts: list[str], start: int, stop: int) -> _Edit | None:
    """Write block labels as canonical quoted strings, as Terraform does."""
    from gpuplat.hcl.writer import quote  # local: hcl imports hclfmt, which imports this

    new_texts: list[str] = []
    for j in range(start, stop):
        if kinds[j] == BCOMMENT:
            continue  # Terraform drops comments interleaved with labels
        label = texts[j]
        value = label if kinds[j] == IDENT else _decode_label(label)
        if value is None:
            new_texts.append(label)
            continue
        try:
            new_texts.append(quote(unicodedata.normalize("NFC", value)))
        except ValueError:
            new_texts.append(label)  # e.g. an escaped lone surrogate: leave it be
    if new_texts == texts[start:stop]:
        return None
    return start, stop, [STRING] * len(new_texts), new_texts


_LABEL_ESCAPE: Final = re.compile(
    r'\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(["\\nrt]))|\$\$\{|%%\{|(\\)'
)
_SIMPLE_ESCAPES: Final = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def _decode_label(literal: str) -> str | None:
    """Decode a quoted label, or None when Terraform would not treat it as one literal.

    Terraform drops (!) labels that its scanner splits into several literal
    tokens, i.e. any label holding a `$` or `%` that is not exactly `$`, `%`,
    `$${` or `%%{`; such labels are left exactly as written here.
    """
    body = literal[1:-1]
    if len(_PIECES.findall(body)) > 1 and ("$" in body or "%" in body):
        return None
    bad = False

    def replace(m: re.Match[str]) -> str:
        nonlocal bad
        short, long, simple, lone = m.groups()
        if lone is not None:
            bad = True
            return ""
        if simple is not None:
            return _SIMPLE_ESCAPES[simple]
        if short is not None or long is not None:
            code = int(short or long, 16)
            if code > 0x10FFFF:
                bad = True
                return ""
            return chr(code)
        return m.group()[1:]  # `$${` -> `${`, `%%{` -> `%{`

    value = _LABEL_ESCAPE.sub(replace, body)
    return None if bad else value


def _apply(
    kinds: list[int], texts: list[str], edits: Sequence[_Edit]
) -> tuple[list[int], list[str]]:
    new_kinds: list[int] = []
    new_texts: list[str] = []
    cursor = 0
    for start, stop, edit_kinds, edit_texts in edits:
        new_kinds += kinds[cursor:start]
        new_texts += texts[cursor:start]
        new_kinds += edit_kinds
        new_texts += edit_texts
        cursor = stop
    new_kinds += kinds[cursor:]
    new_texts += texts[cursor:]
    return new_kinds, new_texts
