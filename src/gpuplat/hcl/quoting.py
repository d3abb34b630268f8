"""The one string quoter of generated HCL, identifier checks, and trusted expressions."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

__all__ = ["IDENT", "MEMO_SIZE", "QUOTED", "Raw", "ident", "quote", "raw"]

# Printable ASCII except `"`, `$`, `%` and `\`: such text needs no escaping.
_PLAIN: Final = re.compile(r"[ !#&-\[\]-~]*")
# What quote() rewrites: quote and backslash, a template introducer (`$` or `%`
# right before `{`), and anything outside printable ASCII (kept when printable,
# escaped otherwise).
_SPECIAL: Final = re.compile(r'["\\]|[$%](?=\{)|[^ -~]')
_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")
_NAMED_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")

# Renders write the same strings and the same small objects many times over (every pool of
# every environment): their text is remembered, by value, up to this many entries each.
MEMO_SIZE: Final = 1 << 16
QUOTED: dict[str, str] = {}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    if char in "$%":
        return char + char  # `${` -> `$${`, `%{` -> `%%{`
    if char.isprintable():
        return char
    # Control, format, separator, private-use and unassigned characters: the
    # same set and spelling (lower-case hex) that Terraform's own writer uses,
    # so `terraform fmt` leaves a label produced here as it is.
    code = ord(char)
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def quote(value: str) -> str:
    """Return the HCL quoted-string literal whose value is exactly ``value``.

    This is the only way text from a spec may enter generated HCL. The result is
    always a single line: quotes, backslashes and line breaks are escaped, every
    control or otherwise invisible character becomes ``\\uXXXX``, and template
    introducers are doubled (``${`` becomes ``$${``, ``%{`` becomes ``%%{``), so
    nothing in ``value`` can end the string, start an interpolation or a
    heredoc, or comment out what follows.

    Args:
        value: the text to embed.

    Returns:
        The literal, including its surrounding double quotes.

    Raises:
        TypeError: if ``value`` is not a ``str``.
        ValueError: if ``value`` holds a lone surrogate, or is not in Unicode NFC
            form (Terraform normalises every string to NFC, so such text could
            not come back unchanged).
    """
    if type(value) is str:
        known = QUOTED.get(value)
        if known is not None:
            return known
    elif not isinstance(value, str):
        raise TypeError(f"quote() takes a str, not {type(value).__name__}")
    text = str.__str__(value)  # a plain str: subclasses such as Markup escape on `+`
    if _PLAIN.fullmatch(text):
        quoted = f'"{text}"'
        if len(QUOTED) < MEMO_SIZE:
            QUOTED[text] = quoted
        return quoted
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        raise ValueError(
            f"quote(): lone surrogate U+{ord(surrogate.group()):04X} at index "
            f"{surrogate.start()} cannot be written as HCL text"
        )
    if not unicodedata.is_normalized("NFC", text):
        raise ValueError(
            "quote(): text is not in Unicode NFC form and Terraform would silently "
            f"normalise it (e.g. 'e\\u0301' becomes 'é'); normalise it first: {text!r}"
        )
    return '"' + _SPECIAL.sub(_escape, text) + '"'


def ident(name: str) -> str:
    """Return ``name`` unchanged if it is a valid HCL identifier.

    Meant for block labels and module names derived from already-validated spec
    names, where quoting would hide a naming mistake instead of reporting it.

    Args:
        name: the candidate identifier.

    Returns:
        ``name``, as a plain ``str``.

    Raises:
        TypeError: if ``name`` is not a ``str``.
        ValueError: if ``name`` is not ``[A-Za-z_][A-Za-z0-9_-]*``.
    """
    if not isinstance(name, str):
        raise TypeError(f"ident() takes a str, not {type(name).__name__}")
    if IDENT.fullmatch(name) is None:
        raise ValueError(
            f"{name!r} is not a valid HCL identifier: it must start with an ASCII letter "
            "or '_' and continue with ASCII letters, digits, '_' or '-'"
        )
    return str.__str__(name)


@dataclass(frozen=True, slots=True)
class Raw:
    """An HCL expression that expr() writes verbatim, such as ``var.region``.

    Build it with raw(); the text is trusted, so it must never contain spec data.
    """

    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"raw() takes a str, not {type(self.text).__name__}")
        if not self.text.strip():
            raise ValueError("raw(): an HCL expression cannot be empty")
        if "\n" in self.text or "\r" in self.text:
            # expr() must know the exact shape of what it emits to stay
            # fmt-clean; a multi-line expression belongs in a template.
            raise ValueError(f"raw(): expression must fit on one line: {self.text!r}")

    def __str__(self) -> str:
        return self.text


def raw(text: str) -> Raw:
    """Mark ``text`` as an already-valid, trusted HCL expression for expr().

    Args:
        text: a one-line expression, e.g. ``module.net.subnet_ids`` or ``var.x``.

    Returns:
        A Raw marker that expr() embeds without quoting.

    Raises:
        TypeError: if ``text`` is not a ``str``.
        ValueError: if ``text`` is blank or spans several lines.
    """
    return Raw(text)
