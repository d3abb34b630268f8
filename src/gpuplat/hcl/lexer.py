"""HCL lexer: source text to token kinds and whitespace-normalised texts."""

from __future__ import annotations

import re
from typing import Final, TypeAlias

from gpuplat.hcl.tokens import (
    _OPS,
    BCOMMENT,
    CHEREDOC,
    CQUOTE,
    IDENT,
    LCOMMENT,
    NL,
    NUMBER,
    OHEREDOC,
    OQUOTE,
    QLIT,
    SLIT,
    STRING,
    TCONTROL,
    TINTERP,
    TSEQEND,
)

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
