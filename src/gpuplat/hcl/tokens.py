"""HCL token kinds: the ints the lexer emits and the tables keyed by them."""

from __future__ import annotations

from typing import Final

# ---------------------------------------------------------------------------
# Token kinds. Plain ints (not an Enum) because the layout passes index tables
# with them in tight loops. They mirror hclsyntax's token types, plus STRING:
# a whole quoted string without template sequences, which behaves like
# OQUOTE on its left and CQUOTE on its right and lets the common case skip the
# per-character template lexer.
# ---------------------------------------------------------------------------
(
    NL,
    LCOMMENT,
    BCOMMENT,
    IDENT,
    NUMBER,
    STRING,
    OQUOTE,
    QLIT,
    CQUOTE,
    OHEREDOC,
    SLIT,
    CHEREDOC,
    TINTERP,
    TCONTROL,
    TSEQEND,
    OBRACE,
    CBRACE,
    OBRACK,
    CBRACK,
    OPAREN,
    CPAREN,
    EQUAL,
    COMMA,
    DOT,
    COLON,
    QUESTION,
    MINUS,
    PLUS,
    STAR,
    SLASH,
    PERCENT,
    BANG,
    EQOP,
    NEQ,
    LT,
    LE,
    GT,
    GE,
    AND,
    OR,
    ARROW,
    ELLIPSIS,
    DCOLON,
) = range(43)
_KINDS: Final = 43
_NIL: Final = -1  # "no token" neighbour at the edge of a cell

_OPS: Final[dict[str, int]] = {
    "{": OBRACE,
    "}": CBRACE,
    "[": OBRACK,
    "]": CBRACK,
    "(": OPAREN,
    ")": CPAREN,
    "=": EQUAL,
    ",": COMMA,
    ".": DOT,
    ":": COLON,
    "?": QUESTION,
    "-": MINUS,
    "+": PLUS,
    "*": STAR,
    "/": SLASH,
    "%": PERCENT,
    "!": BANG,
    "==": EQOP,
    "!=": NEQ,
    "<": LT,
    "<=": LE,
    ">": GT,
    ">=": GE,
    "&&": AND,
    "||": OR,
    "=>": ARROW,
    "...": ELLIPSIS,
    "::": DCOLON,
}

# Net bracket change of each kind: what hclwrite uses for indentation and for
# deciding whether an `=` line holds a complete (alignable) value.
_DELTA: Final[list[int]] = [0] * _KINDS
for _k in (OBRACE, OBRACK, OPAREN, TINTERP, TCONTROL):
    _DELTA[_k] = 1
for _k in (CBRACE, CBRACK, CPAREN, TSEQEND):
    _DELTA[_k] = -1
