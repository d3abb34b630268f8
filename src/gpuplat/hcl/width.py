"""Token widths as hclwrite measures them: grapheme clusters per scanner piece."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from gpuplat.hcl.lexer import _lex
from gpuplat.hcl.tokens import QLIT, STRING

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
