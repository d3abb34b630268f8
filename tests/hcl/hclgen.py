"""Seeded generators for the HCL writer tests: hostile strings and keys."""

from __future__ import annotations

import random
import string
import unicodedata

# Pieces of text that have broken HCL quoting somewhere: string and template
# delimiters, escapes, heredoc and comment openers, invisible characters.
NASTY_FRAGMENTS: tuple[str, ...] = (
    '"',
    "\\",
    "${",
    "%{",
    "$${",
    "%%{",
    "$$${",
    "%%%{",
    "}",
    "{",
    "~}",
    "$",
    "%",
    "$$",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "<<EOF",
    "<<-EOT\n",
    "EOF",
    "EOT",
    "#",
    "//",
    "/*",
    "*/",
    "=",
    "\\n",
    "\\u0041",
    "\\\\${",
    "${var.x}",
    "%{ if true }x%{ endif }",
    "\x00",
    "\x1b",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u00ad",
    "\u2028",
    "\u2029",
    "\u200b",
    "\u200d",
    "\ufeff",
    "\ufffe",
    "\U000e0001",
    "\U0010ffff",
    "\ue000",
    "é",
    "日本",
    "😀",
    "👨\u200d👩\u200d👧",
    "🇺🇸",
)

# Object keys whose width terraform fmt would measure in grapheme clusters, token
# by token, were they written raw; expr() writes them in ASCII with \u escapes.
GRAPHEME_KEYS: tuple[str, ...] = (
    "é",
    "e\u0301",
    "a$\u0301",
    "%\u0301x",
    "🇺🇸",
    "🇺🇸🇫",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "😀\u0301",
    "❤\ufe0f",
    "각",
    "\u1100\u1161\u11a8",
    "\u1100\u1100\u1161",
    "क्षि",
    "กำ",
    "ｆｕｌｌ",
    "日本語",
    "a\u200bb",
    "\u0600a",
    "x\u0308\u0301y",
)


def random_text(rnd: random.Random, max_parts: int = 8) -> str:
    """Text mixing hostile fragments, ASCII and random code points (no surrogates)."""
    parts: list[str] = []
    for _ in range(rnd.randint(0, max_parts)):
        roll = rnd.random()
        if roll < 0.45:
            parts.append(rnd.choice(NASTY_FRAGMENTS))
        elif roll < 0.75:
            parts.append("".join(rnd.choices(string.printable, k=rnd.randint(1, 6))))
        else:
            parts.append(chr(rnd.choice(_CODEPOINT_POOL)))
    return "".join(parts)


def nfc_text(rnd: random.Random, max_parts: int = 8) -> str:
    """random_text() in Unicode NFC, the only form quote() accepts."""
    return unicodedata.normalize("NFC", random_text(rnd, max_parts))


_CODEPOINT_POOL: tuple[int, ...] = (
    *range(0x00, 0x20),
    0x7F,
    *range(0x80, 0xA0),
    *range(0xA0, 0x180),
    *range(0x300, 0x370),
    *range(0x400, 0x450),
    *range(0x900, 0x980),
    *range(0x3040, 0x30A0),
    *range(0xAC00, 0xAC40),
    *range(0x1F300, 0x1F340),
    *range(0x1F3FB, 0x1F400),
    0x200C,
    0x200D,
    0x2060,
    0xFFFD,
    0x10FFFF,
)
