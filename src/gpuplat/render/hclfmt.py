"""Canonical HCL layout, identical to ``terraform fmt``, computed in pure Python."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Final, TypeAlias

__all__ = ["columns", "format_hcl"]

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

# ---------------------------------------------------------------------------
# Lexer
# ---------------------------------------------------------------------------
# Expression/body mode. Blanks are skipped (layout recomputes every gap), so a
# token's text never carries its leading whitespace. Possessive quantifiers
# keep the STRING attempt linear when it fails on a string that holds `${`.
_NORMAL: Final = re.compile(
    r"""
    [ \t]*+
    (?:
        (?P<nl>\r?\n)
      | (?P<id>[^\W\d][\w-]*+)
      | (?P<str>"(?:[^"\\\r\n$%]++|\\[^\r\n]|\$\$\{|%%\{|\$(?!\{)|%(?!\{))*+")
      | (?P<num>[0-9]++(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?)
      | (?P<lc>(?:\#|//)[^\r\n]*+(?:\r?\n)?)
      | (?P<bc>/\*.*?\*/)
      | (?P<hd><<-?(?P<marker>[^\W\d][\w-]*+)\r?\n)
      | (?P<op>\.\.\.|==|!=|<=|>=|&&|\|\||=>|::|~\}|[-+*/%=<>!?:.,()\[\]{}])
      | (?P<q>")
      | (?P<end>\Z)
      | (?P<bad>.)
    )
    """,
    re.VERBOSE | re.DOTALL,
)
# Inside "...": literal runs, template introducers, the closing quote.
_QUOTED: Final = re.compile(
    r"""
    (?P<lit>(?:[^"\\\r\n$%]++|\\[^\r\n]|\$\$\{~?|%%\{~?|\$(?!\{)|%(?!\{))++)
  | (?P<interp>\$\{~?)
  | (?P<ctrl>%\{~?)
  | (?P<close>")
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)
# Inside a heredoc body: literal text up to and including the end of a line.
_HEREDOC: Final = re.compile(
    r"""
    (?P<lit>(?:[^$%\r\n]++|\$\$\{~?|%%\{~?|\$(?!\{)|%(?!\{))++(?:\r?\n)?|\r?\n)
  | (?P<interp>\$\{~?)
  | (?P<ctrl>%\{~?)
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_SIMPLE_KINDS: Final[dict[str | None, int]] = {
    "id": IDENT,
    "num": NUMBER,
    "str": STRING,
}


class _Interp:
    """Lexer frame for the expression inside ``${ }`` / ``%{ }``."""

    __slots__ = ("depth",)

    def __init__(self) -> None:
        self.depth = 0  # object-constructor braces opened inside the sequence


class _Heredoc:
    """Lexer frame for a heredoc body."""

    __slots__ = ("at_line_start", "closer")

    def __init__(self, marker: str) -> None:
        # The closing line is the marker alone, surrounded by any whitespace
        # (hclsyntax compares the line with bytes.TrimSpace).
        self.closer = re.compile(r"[^\S\r\n]*" + re.escape(marker) + r"[^\S\r\n]*(?=\r?\n|\Z)")
        self.at_line_start = True


_Frame: TypeAlias = _Interp | _Heredoc | None  # None: inside a quoted template
_TOP: Final = _Interp()  # the file itself is parsed in expression/body mode


def _lex(text: str) -> tuple[list[int], list[str]]:
    """Split HCL source into (kinds, texts); texts are already whitespace-normalised.

    Line endings outside heredoc bodies become ``\\n`` and comments lose their
    trailing blanks; heredoc body text is kept byte for byte.

    Raises:
        ValueError: on characters HCL does not allow or unterminated constructs.
    """
    kinds: list[int] = []
    texts: list[str] = []
    stack: list[_Frame] = []
    pos = 0
    end = len(text)
    match = _NORMAL.match
    simple = _SIMPLE_KINDS
    ops = _OPS
    while pos < end:
        if not stack:
            # Fast path for the bulk of a file: plain tokens outside templates.
            m = match(text, pos)
            assert m is not None  # the `bad` and `end` branches match anywhere
            group = m.lastgroup
            kind = simple.get(group)
            if kind is not None:
                kinds.append(kind)
                texts.append(m[group])  # type: ignore[index]
                pos = m.end()
                continue
            if group == "nl":
                kinds.append(NL)
                texts.append("\n")
                pos = m.end()
                continue
            if group == "op" and m["op"] != "~}":
                kinds.append(ops[m["op"]])
                texts.append(m["op"])
                pos = m.end()
                continue
        top = stack[-1] if stack else _TOP
        if isinstance(top, _Interp):
            pos = _lex_normal(text, pos, top, stack, kinds, texts)
        elif top is None:
            pos = _lex_quoted(text, pos, stack, kinds, texts)
        else:
            pos = _lex_heredoc(text, pos, top, stack, kinds, texts)
    if stack:
        what = "heredoc" if isinstance(stack[-1], _Heredoc) else "string or template sequence"
        raise ValueError(f"HCL: unterminated {what} at end of input")
    return kinds, texts


def _lex_normal(
    text: str, pos: int, frame: _Interp, stack: list[_Frame], kinds: list[int], texts: list[str]
) -> int:
    """Lex one token in expression/body mode; return the new position."""
    m = _NORMAL.match(text, pos)
    assert m is not None  # the `bad` and `end` branches match anywhere
    group = m.lastgroup or "end"
    token = m.group(group)
    kind = _SIMPLE_KINDS.get(group)
    if kind is not None:
        kinds.append(kind)
        texts.append(token)
    elif group == "op":
        if stack and token in ("{", "}", "~}"):
            # Inside ${ }: count object braces so the matching `}` ends the sequence.
            if token == "{":
                frame.depth += 1
            elif frame.depth == 0:
                stack.pop()
                kinds.append(TSEQEND)
                texts.append(token)
                return m.end()
            elif token == "~}":
                raise _error(text, m.start(group), "misplaced '~}'")
            else:
                frame.depth -= 1
        elif token == "~}":
            raise _error(text, m.start(group), "misplaced '~}'")
        kinds.append(_OPS[token])
        texts.append(token)
    elif group == "nl":
        kinds.append(NL)
        texts.append("\n")
    elif group == "lc":
        kinds.append(LCOMMENT)
        texts.append(token.rstrip() + "\n")
    elif group == "bc":
        kinds.append(BCOMMENT)
        texts.append("\n".join(line.rstrip() for line in token.split("\n")))
    elif group == "q":
        kinds.append(OQUOTE)
        texts.append(token)
        stack.append(None)
    elif group == "hd":
        kinds.append(OHEREDOC)
        texts.append(token.rstrip("\r\n") + "\n")
        stack.append(_Heredoc(m.group("marker")))
    elif group == "end":
        return len(text)  # only blanks were left
    else:
        raise _error(text, m.start(group), "unexpected character")
    return m.end()


def _lex_quoted(
    text: str, pos: int, stack: list[_Frame], kinds: list[int], texts: list[str]
) -> int:
    """Lex one token of a quoted template; return the new position."""
    m = _QUOTED.match(text, pos)
    assert m is not None
    group = m.lastgroup
    if group == "lit":
        kinds.append(QLIT)
    elif group == "close":
        kinds.append(CQUOTE)
        stack.pop()
    elif group == "interp":
        kinds.append(TINTERP)
        stack.append(_Interp())
    elif group == "ctrl":
        kinds.append(TCONTROL)
        stack.append(_Interp())
    else:
        raise _error(text, pos, "unterminated string (quoted strings must stay on one line)")
    texts.append(m.group())
    return m.end()


def _lex_heredoc(
    text: str,
    pos: int,
    frame: _Heredoc,
    stack: list[_Frame],
    kinds: list[int],
    texts: list[str],
) -> int:
    """Lex one token of a heredoc body; return the new position."""
    if frame.at_line_start:
        closing = frame.closer.match(text, pos)
        if closing is not None:
            kinds.append(CHEREDOC)
            texts.append(closing.group().rstrip())
            stack.pop()
            return closing.end()
    m = _HEREDOC.match(text, pos)
    assert m is not None
    group = m.lastgroup
    if group == "lit":
        lit = m.group()
        kinds.append(SLIT)
        texts.append(lit)  # body text is content: never touched
        frame.at_line_start = lit.endswith("\n")
    elif group in ("interp", "ctrl"):
        kinds.append(TINTERP if group == "interp" else TCONTROL)
        texts.append(m.group())
        frame.at_line_start = False
        stack.append(_Interp())
    else:
        raise _error(text, pos, "unexpected character in heredoc")
    return m.end()


def _error(text: str, pos: int, what: str) -> ValueError:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return ValueError(f"HCL: {what} at line {line}, column {column}: {text[pos : pos + 20]!r}")


# ---------------------------------------------------------------------------
# Width: hclwrite measures a cell as the sum, token by token, of grapheme
# clusters (Unicode 15.0 rules, via go-textseg). Counting per token matters:
# a combining mark right after a `$` sits in its own scanner token.
# ---------------------------------------------------------------------------
(
    _G_OTHER,
    _G_CR,
    _G_LF,
    _G_CONTROL,
    _G_EXTEND,
    _G_ZWJ,
    _G_RI,
    _G_PREPEND,
    _G_SPACING,
    _G_L,
    _G_V,
    _G_T,
    _G_LV,
    _G_LVT,
) = range(14)


def _codepoints(spec: str) -> frozenset[int]:
    """Parse a Unicode data style list such as ``"0600..0605 06DD"``."""
    points: set[int] = set()
    for item in spec.split():
        lo, _, hi = item.partition("..")
        points.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return frozenset(points)


# Grapheme_Cluster_Break=Extend beyond Mn/Me (Other_Grapheme_Extend, ZWNJ,
# emoji modifiers, tags); Mc marks that are *not* SpacingMark; and Prepend.
_EXTEND_EXTRA: Final = _codepoints(
    "09BE 09D7 0B3E 0B57 0BBE 0BD7 0CC2 0CD5..0CD6 0D3E 0D57 0DCF 0DDF 1B35 200C"
    " 302E..302F FF9E..FF9F 1133E 11357 114B0 114BD 115AF 11930 1D165 1D16E..1D172"
    " 1F3FB..1F3FF E0020..E007F"
)
_NOT_SPACING: Final = _codepoints(
    "102B..102C 1038 1062..1064 1067..106D 1083 1087..108C 108F 109A..109C"
    " 1A61 1A63..1A64 AA7B AA7D 11720..11721"
)
_PREPEND: Final = _codepoints(
    "0600..0605 06DD 070F 0890..0891 08E2 0D4E 110BD 110CD 111C2..111C3 1193F 11941"
    " 11A3A 11A84..11A89 11D46 11F02"
)
_PICTOGRAPHIC: Final = _codepoints(  # Extended_Pictographic, emoji-data.txt
    "00A9 00AE 203C 2049 2122 2139 2194..2199 21A9..21AA 231A..231B 2328 2388 23CF"
    " 23E9..23F3 23F8..23FA 24C2 25AA..25AB 25B6 25C0 25FB..25FE 2600..2605 2607..2612"
    " 2614..2685 2690..2705 2708..2712 2714 2716 271D 2721 2728 2733..2734 2744 2747"
    " 274C 274E 2753..2755 2757 2763..2767 2795..2797 27A1 27B0 27BF 2934..2935"
    " 2B05..2B07 2B1B..2B1C 2B50 2B55 3030 303D 3297 3299 1F000..1F0FF 1F10D..1F10F"
    " 1F12F 1F16C..1F171 1F17E..1F17F 1F18E 1F191..1F19A 1F1AD..1F1E5 1F201..1F20F"
    " 1F21A 1F22F 1F232..1F23A 1F23C..1F23F 1F249..1F3FA 1F400..1F53D 1F546..1F64F"
    " 1F680..1F6FF 1F774..1F77F 1F7D5..1F7FF 1F80C..1F80F 1F848..1F84F 1F85A..1F85F"
    " 1F888..1F88F 1F8AE..1F8FF 1F90C..1F93A 1F93C..1F945 1F947..1FAFF 1FC00..1FFFD"
)
_SPACING_EXTRA: Final = frozenset([0x0E33, 0x0EB3])  # Lo, yet SpacingMark


@lru_cache(maxsize=8192)
def _break_class(ch: str) -> tuple[int, bool]:
    """Grapheme_Cluster_Break class of ``ch`` and whether it is Extended_Pictographic."""
    cp = ord(ch)
    pictographic = cp in _PICTOGRAPHIC
    if cp == 0x0D:
        return _G_CR, False
    if cp == 0x0A:
        return _G_LF, False
    if cp == 0x200D:
        return _G_ZWJ, False
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return _G_RI, False
    if cp in _EXTEND_EXTRA:
        return _G_EXTEND, False
    if cp in _PREPEND:
        return _G_PREPEND, False
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return _G_L, False
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return _G_V, False
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return _G_T, False
    if 0xAC00 <= cp <= 0xD7A3:
        return (_G_LV if (cp - 0xAC00) % 28 == 0 else _G_LVT), False
    category = unicodedata.category(ch)
    if category in ("Mn", "Me"):
        return _G_EXTEND, False
    if (category == "Mc" and cp not in _NOT_SPACING) or cp in _SPACING_EXTRA:
        return _G_SPACING, False
    if category in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        return _G_CONTROL, False
    return _G_OTHER, pictographic


_HANGUL_JOINS: Final = frozenset(
    (before, after)
    for before, afters in (
        (_G_L, (_G_L, _G_V, _G_LV, _G_LVT)),
        (_G_LV, (_G_V, _G_T)),
        (_G_V, (_G_V, _G_T)),
        (_G_LVT, (_G_T,)),
        (_G_T, (_G_T,)),
    )
    for after in afters
)
_HARD: Final = frozenset([_G_CR, _G_LF, _G_CONTROL])


def _clusters(text: str) -> int:
    """Count extended grapheme clusters (UAX #29 as of Unicode 15.0)."""
    if text.isascii():
        return len(text) - text.count("\r\n")
    count = 0
    prev = -1
    regional = 0  # regional indicators directly before this character
    emoji = 0  # 1: after ExtPict Extend*, 2: after ExtPict Extend* ZWJ
    for ch in text:
        cls, pictographic = _break_class(ch)
        if prev < 0:
            joins = False
        elif prev == _G_CR and cls == _G_LF:
            joins = True
        elif prev in _HARD or cls in _HARD:
            joins = False
        elif (prev, cls) in _HANGUL_JOINS or cls in (_G_EXTEND, _G_ZWJ, _G_SPACING):
            joins = True
        elif prev == _G_PREPEND:
            joins = True
        elif pictographic and emoji == 2:
            joins = True
        else:
            joins = cls == _G_RI and regional % 2 == 1
        if not joins:
            count += 1
        regional = regional + 1 if cls == _G_RI else 0
        if pictographic:
            emoji = 1
        elif emoji and cls == _G_EXTEND:
            pass
        elif emoji == 1 and cls == _G_ZWJ:
            emoji = 2
        else:
            emoji = 0
        prev = cls
    return count


# The scanner splits a quoted literal at every `$` / `%` (and keeps `$${` /
# `%%{` whole); hclwrite then counts clusters per piece.
_PIECES: Final = re.compile(r"\$\$\{~?|%%\{~?|[$%]|(?:\\.|[^$%\\])+", re.DOTALL)


def _token_columns(kind: int, text: str) -> int:
    if text.isascii():
        return len(text) - text.count("\r\n")
    if kind == STRING:
        return 2 + sum(_clusters(piece) for piece in _PIECES.findall(text, 1, len(text) - 1))
    if kind == QLIT:
        return sum(_clusters(piece) for piece in _PIECES.findall(text))
    return _clusters(text)


def columns(token: str) -> int:
    """Width of one HCL token as ``terraform fmt`` measures it when aligning.

    Args:
        token: a single token, e.g. an identifier or a quoted string such as ``"é"``.

    Returns:
        Its grapheme clusters, counted per scanner piece the way hclwrite does.

    Raises:
        ValueError: if ``token`` is not exactly one HCL token.
    """
    if token.isascii():
        return len(token) - token.count("\r\n")
    kinds, texts = _lex(token)
    if len(kinds) != 1:
        raise ValueError(f"columns() takes exactly one HCL token, got {token!r}")
    return _token_columns(kinds[0], texts[0])


# ---------------------------------------------------------------------------
# Spacing between two tokens of one cell (hclwrite's rules, in its order).
# ---------------------------------------------------------------------------
# A minus after one of these starts a negation (`-1`), not a subtraction.
_NEGATION_BEFORE: Final = frozenset(
    {_NIL, OPAREN, OBRACE, OBRACK, EQUAL, COLON, COMMA, QUESTION, PLUS, STAR, SLASH, PERCENT}
    | {MINUS, EQOP, NEQ, GT, GE, LT, LE, AND, OR, BANG}
)


def _space_after(before: int, subject: int, subject_text: str, after: int) -> bool:
    """Whether one blank separates ``subject`` from the token ``after`` it."""
    # A whole STRING token is an OQUOTE..CQUOTE run: it neighbours others
    # through its closing quote on the left side and its opening quote on the right.
    if subject == STRING:
        subject = CQUOTE
    if after == STRING:
        after = OQUOTE
    if before == STRING:
        before = CQUOTE
    if after == NL:
        return False
    if (subject == IDENT and after in (OPAREN, DCOLON)) or (subject == DCOLON and after == IDENT):
        return False
    if DOT in (subject, after):
        return False
    if after in (COMMA, ELLIPSIS):
        return False
    if subject == COMMA:
        return True
    if subject in (QLIT, SLIT, OQUOTE, OHEREDOC) or after in (QLIT, SLIT, CQUOTE, CHEREDOC):
        return False  # no blanks added inside templates
    if subject == IDENT and subject_text == "in" and before == IDENT:
        return True  # `for x in [..]`: `in` is a keyword here, not a value to index
    if after == OBRACK and (subject in (IDENT, NUMBER) or _DELTA[subject] < 0):
        return False
    if subject == BANG:
        return False
    if subject == MINUS:
        return before not in _NEGATION_BEFORE  # a binary minus gets blanks, a negation none
    if subject == OBRACE or after == CBRACE:
        return not (subject == OBRACE and after == CBRACE)
    if subject in (TINTERP, TCONTROL) and after == OBRACE:
        return True
    if subject == CBRACE and after == TSEQEND:
        return True
    if subject == TSEQEND and after in (TINTERP, TCONTROL):
        return False
    if _DELTA[subject] > 0:
        return False
    return _DELTA[after] >= 0


# Most pairs do not depend on the left neighbour or the token text: tabulate them.
_PAIR: Final[list[bool]] = [
    _space_after(_NIL, s, "", a) for s in range(_KINDS) for a in range(_KINDS)
]


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
    from gpuplat.render.hcl import quote  # local: hcl imports this module

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


# ---------------------------------------------------------------------------
# Layout: hclwrite's three passes over lines (indent, spaces, aligned cells).
# ---------------------------------------------------------------------------
def _layout(kinds: list[int], texts: list[str]) -> str:
    """Return the formatted text for a token stream (which ends with a newline)."""
    spaces = [0] * len(kinds)
    delta = _DELTA
    pair = _PAIR
    # prefix[j] - prefix[i]: net brackets opened by tokens i..j-1.
    prefix = list(accumulate(map(delta.__getitem__, kinds), initial=0))
    heredocs = OHEREDOC in kinds
    indents: list[int] = []  # brackets opened by each line that indented
    # Runs of consecutive lines with an alignable `=` (or trailing comment),
    # as (first token, cell token) pairs; any other line ends a run.
    assign_runs: list[list[tuple[int, int]]] = [[]]
    comment_runs: list[list[tuple[int, int]]] = [[]]
    start = 0
    for last in [j for j, kind in enumerate(kinds) if kind in (NL, LCOMMENT)]:
        first = start
        start = last + 1
        if kinds[first] == NL:  # blank line: no indent, ends both kinds of run
            if assign_runs[-1]:
                assign_runs.append([])
            if comment_runs[-1]:
                comment_runs.append([])
            continue
        lead_end = start
        if kinds[last] == LCOMMENT and last > first:
            lead_end = last
            comment_runs[-1].append((first, last))
        elif comment_runs[-1]:
            comment_runs.append([])
        assign = -1
        try:
            equal = kinds.index(EQUAL, first + 1, lead_end)
        except ValueError:
            pass
        else:
            # `=` is alignable only when its value closes on the same line.
            if prefix[lead_end] == prefix[equal]:
                assign = equal
        if assign >= 0:
            assign_runs[-1].append((first, assign))
        elif assign_runs[-1]:
            assign_runs.append([])

        # Indent by the brackets that earlier lines left open; a line that
        # opens more pushes one level, however many brackets it opened.
        lead_stop = assign if assign >= 0 else lead_end
        net = prefix[lead_end] - prefix[first]
        if heredocs and OHEREDOC in kinds[first:lead_stop]:
            # hclwrite stops counting the lead cell at a heredoc opener.
            opener = kinds.index(OHEREDOC, first, lead_stop)
            net -= prefix[lead_stop] - prefix[opener + 1]
        if net > 0:
            spaces[first] = 2 * len(indents)
            indents.append(net)
        else:
            closed = -net
            while closed > 0 and indents:
                if closed >= indents[-1]:
                    closed -= indents.pop()
                else:
                    indents[-1] -= closed
                    closed = 0
            spaces[first] = 2 * len(indents)

        # Blanks between the tokens of the lead cell, then of the assign cell.
        for lo, hi in ((first, lead_stop), (assign, lead_end)):
            if lo < 0:
                continue
            before = _NIL
            for j in range(lo, hi - 1):
                subject = kinds[j]
                if subject == MINUS or (subject == IDENT and texts[j] == "in"):
                    gap = _space_after(before, subject, texts[j], kinds[j + 1])
                else:
                    gap = pair[subject * _KINDS + kinds[j + 1]]
                spaces[j + 1] = 1 if gap else 0
                before = subject
        if assign >= 0:
            spaces[assign] = 1

    # The `=` column first: trailing comments then line up after the values.
    for runs in (assign_runs, comment_runs):
        for run in runs:
            if not run:
                continue
            widths = [_width(kinds, texts, spaces, first, cell) for first, cell in run]
            widest = max(widths)
            for (_, cell), width in zip(run, widths, strict=True):
                spaces[cell] = widest - width + 1
    out = "".join([" " * gap + text for gap, text in zip(spaces, texts, strict=True)])
    return out.rstrip("\n") + "\n" if out.strip() else ""


def _width(kinds: list[int], texts: list[str], spaces: list[int], lo: int, hi: int) -> int:
    """Columns that tokens lo..hi-1 occupy, blanks before each included."""
    width = sum(spaces[lo:hi])
    for j in range(lo, hi):
        width += _token_columns(kinds[j], texts[j])
    return width


def format_hcl(text: str) -> str:
    """Format HCL source exactly as ``terraform fmt`` (1.11) would.

    Indents two spaces per open bracket level, normalises blanks between
    tokens, aligns the ``=`` of consecutive one-line attributes and trailing
    comments, re-quotes block labels, unwraps a lone ``"${expr}"`` attribute
    value and modernises legacy ``variable`` types. String literals and heredoc
    bodies are never changed. Beyond ``terraform fmt`` it also strips trailing
    blanks from comments, writes LF line endings and ends the text with exactly
    one newline (Terraform would keep trailing blank lines).

    Args:
        text: HCL native-syntax source.

    Returns:
        The canonical text; formatting it again returns it unchanged.

    Raises:
        ValueError: if ``text`` cannot be tokenised as HCL (stray characters,
            unterminated strings, heredocs or template sequences).
    """
    if not text.endswith("\n"):
        text += "\n"
    kinds, texts = _lex(text)
    edits = _terraform_rewrites(kinds, texts)
    if edits:
        kinds, texts = _apply(kinds, texts, edits)
    return _layout(kinds, texts)
