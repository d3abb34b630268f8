"""Canonical HCL layout, identical to ``terraform fmt``, computed in pure Python."""

from __future__ import annotations

from itertools import accumulate
from typing import Final

from gpuplat.hcl.lexer import _lex
from gpuplat.hcl.rewrites import _apply, _terraform_rewrites
from gpuplat.hcl.tokens import (
    _DELTA,
    _KINDS,
    _NIL,
    AND,
    BANG,
    CBRACE,
    CHEREDOC,
    COLON,
    COMMA,
    CQUOTE,
    DCOLON,
    DOT,
    ELLIPSIS,
    EQOP,
    EQUAL,
    GE,
    GT,
    IDENT,
    LCOMMENT,
    LE,
    LT,
    MINUS,
    NEQ,
    NL,
    NUMBER,
    OBRACE,
    OBRACK,
    OHEREDOC,
    OPAREN,
    OQUOTE,
    OR,
    PERCENT,
    PLUS,
    QLIT,
    QUESTION,
    SLASH,
    SLIT,
    STAR,
    STRING,
    TCONTROL,
    TINTERP,
    TSEQEND,
)
from gpuplat.hcl.width import _token_columns, columns

__all__ = ["columns", "format_hcl"]

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
