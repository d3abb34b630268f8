"""An independent decoder of HCL quoted string literals, for tests that read values back."""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# An independent decoder, written from the HCL native syntax spec: a quoted
# template literal with escapes \n \r \t \" \\ \uNNNN \UNNNNNNNN, where $${ and
# %%{ stand for a literal ${ and %{ and nothing else may start a template.
# ---------------------------------------------------------------------------
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_HEX = re.compile(r"[0-9A-Fa-f]+")


def decode(literal: str) -> str:
    assert len(literal) >= 2 and literal[0] == '"' and literal[-1] == '"', literal
    body = literal[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            code = body[i + 1]
            if code in _SIMPLE:
                out.append(_SIMPLE[code])
                i += 2
                continue
            size = {"u": 4, "U": 8}.get(code)
            assert size is not None, f"invalid escape \\{code} in {literal!r}"
            digits = body[i + 2 : i + 2 + size]
            assert len(digits) == size and _HEX.fullmatch(digits), literal
            out.append(chr(int(digits, 16)))
            i += 2 + size
        elif body.startswith(("$${", "%%{"), i):
            out.append(char + "{")
            i += 3
        else:
            assert not body.startswith(("${", "%{"), i), f"live template sequence in {literal!r}"
            assert char != '"', f"unescaped quote in {literal!r}"
            out.append(char)
            i += 1
    return "".join(out)


def python_hcl2_can_lex(value: str) -> bool:
    """False where python-hcl2 itself cannot parse valid HCL.

    Its lexer reads an escaped `$${` / `%%{` as `\\$\\$\\{[^}]*\\}`: without a
    later `}` it runs past the closing quote. Such strings are still covered
    by the real-Terraform round trip below.
    """
    return all("}" in value[m.end() :] for m in re.finditer(r"[$%]\{", value))
