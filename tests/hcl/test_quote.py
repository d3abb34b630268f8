"""quote(): every spec string comes back exactly, and can never inject HCL structure."""

from __future__ import annotations

import base64
import enum
import itertools
import json
import random
import subprocess
import unicodedata
from pathlib import Path

import hcl2
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from gpuplat.hcl.writer import quote
from tests.hcl.hclgen import NASTY_FRAGMENTS, nfc_text
from tests.support.hcldecode import decode, python_hcl2_can_lex
from tests.support.realparts import terraform_bin, terraform_env


def test_decoder_reads_the_spec_escapes() -> None:
    assert decode(r'"a\n\r\t\"\\\u00e9\U0001F600"') == 'a\n\r\t"\\é😀'
    assert decode('"$${x}%%{y}$$$${z}$"') == "${x}%{y}$$${z}$"
    with pytest.raises(AssertionError):
        decode('"${x}"')


# ---------------------------------------------------------------------------
# Exact spellings, each checked against real Terraform in the test below.
# ---------------------------------------------------------------------------
EXACT = [
    ("", '""'),
    ("plain text", '"plain text"'),
    ("${x}", '"$${x}"'),
    ("$${x}", '"$$${x}"'),
    ("$$${x}", '"$$$${x}"'),
    ("%{x}", '"%%{x}"'),
    ("%%{x}", '"%%%{x}"'),
    ("${", '"$${"'),
    ("%{", '"%%{"'),
    ("$", '"$"'),
    ("%", '"%"'),
    ("a$", '"a$"'),
    ("a%", '"a%"'),
    ("$$", '"$$"'),
    ("$}", '"$}"'),
    ("{$", '"{$"'),
    ("$ {", '"$ {"'),
    ("${}${}", '"$${}$${}"'),
    ("~}", '"~}"'),
    ('"', r'"\""'),
    ("\\", r'"\\"'),
    ("\\${", r'"\\$${"'),
    ("\n\r\t", r'"\n\r\t"'),
    ("\x00\x01\x1f\x7f", r'"\u0000\u0001\u001f\u007f"'),
    ("\x80\x85\x9f", r'"\u0080\u0085\u009f"'),
    ("\u00a0\u00ad\u2028\u2029\u200b\u200d\ufeff", r'"\u00a0\u00ad\u2028\u2029\u200b\u200d\ufeff"'),
    ("\ue000\U000e0001\U0010ffff", r'"\ue000\U000e0001\U0010ffff"'),
    ("é 日本 😀 🇺🇸", '"é 日本 😀 🇺🇸"'),
    ("<<EOF\nEOF\n", r'"<<EOF\nEOF\n"'),
    ("# x // y /* z */", '"# x // y /* z */"'),
]


@pytest.mark.parametrize(("value", "literal"), EXACT)
def test_quote_spelling(value: str, literal: str) -> None:
    assert quote(value) == literal
    assert decode(literal) == value


def test_quote_returns_plain_str_for_str_subclasses() -> None:
    class Colour(enum.StrEnum):
        RED = 'r"d'

    # Markup would HTML-escape anything concatenated to it: the literal must not.
    assert quote(Markup('a"b')) == r'"a\"b"'
    assert type(quote(Markup("ab"))) is str
    assert quote(Colour.RED) == r'"r\"d"'


@pytest.mark.parametrize("bad", [b"bytes", None, 1, 1.5, ["x"], object()])
def test_quote_rejects_non_str(bad: object) -> None:
    with pytest.raises(TypeError, match="quote"):
        quote(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["\ud800", "a\udfffb", "\udbff\udc00"])
def test_quote_rejects_lone_surrogates(bad: str) -> None:
    with pytest.raises(ValueError, match="surrogate"):
        quote(bad)


def test_quote_rejects_text_terraform_would_normalise() -> None:
    # Terraform stores every string in NFC: "e\u0301" would come back as "é".
    with pytest.raises(ValueError, match="NFC"):
        quote("e\u0301")
    assert quote("\u00e9") == '"é"'


@given(st.text())
def test_quote_accepts_exactly_the_nfc_text(value: str) -> None:
    if unicodedata.is_normalized("NFC", value):
        assert decode(quote(value)) == value
    else:
        with pytest.raises(ValueError, match="NFC"):
            quote(value)


# ---------------------------------------------------------------------------
# Property: as a value, object key, list element and block label, quote(s)
# parses to exactly the expected document.
# ---------------------------------------------------------------------------
def _nfc(value: str) -> str:
    return unicodedata.normalize("NFC", value)


# Full Unicode (control characters included), and text spliced together from
# fragments that have broken quoting elsewhere.
HOSTILE_TEXT = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(NASTY_FRAGMENTS), st.text(max_size=6)), max_size=10).map(
        "".join
    ),
).map(_nfc)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE_TEXT)
def test_quoted_text_cannot_change_document_structure(value: str) -> None:
    literal = quote(value)
    assert "\n" not in literal and "\r" not in literal
    assert all(char.isprintable() for char in literal)
    assert decode(literal) == value

    assume(python_hcl2_can_lex(value))
    document = (
        f"value = {literal}\n"
        f"object = {{ {literal} = 1 }}\n"
        f"list = [{literal}]\n"
        f"block {literal} {{\n"
        "  inner = 2\n"
        "}\n"
        "last = 3\n"
    )
    parsed = hcl2.loads(document)
    assert parsed == {
        "value": literal,
        "object": {literal: 1},
        "list": [literal],
        "block": [{literal: {"inner": 2, "__is_block__": True}}],
        "last": 3,
    }


# ---------------------------------------------------------------------------
# The real thing: Terraform reads every string back exactly.
# ---------------------------------------------------------------------------
def hard_strings() -> list[str]:
    fixed = [value for value, _ in EXACT]
    fixed += list(NASTY_FRAGMENTS)
    fixed += [
        "${var.secret}",
        "%{ for x in var.list }${x}%{ endfor }",
        'x"\n}\nresource "null" "pwn" {\n#',
        'EOF\n${file("/etc/passwd")}\nEOF',
        "".join(chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]),
        "e$\u0301",  # NFC, though a mark follows `$`: Terraform splits the literal there
        "\ufffe\uffff\ufffd",
    ]
    # Every run of template-ish characters up to four long.
    for size in range(1, 5):
        fixed += ["".join(chars) for chars in itertools.product("$%{}\\", repeat=size)]
    rnd = random.Random(20240611)
    fixed += [nfc_text(rnd) for _ in range(300)]
    return list(dict.fromkeys(value for value in fixed if unicodedata.is_normalized("NFC", value)))


@pytest.mark.terraform
def test_terraform_reads_back_every_quoted_string(tmp_path: Path) -> None:
    terraform = terraform_bin()
    strings = hard_strings()
    root = tmp_path / "root"
    root.mkdir()
    lines = ["locals {", "  values = ["]
    lines += [f"    {quote(value)}," for value in strings]
    lines += ["  ]", "  keyed = {"]
    lines += [f"    {quote(value)} = {index}" for index, value in enumerate(strings)]
    lines += ["  }", "}", ""]
    (root / "main.tf").write_text("\n".join(lines), encoding="utf-8")

    # Read every string back as base64 of its UTF-8 bytes. Not jsonencode() of
    # the strings: its JSON text is itself a Terraform string, normalised to
    # NFC, so an escape such as `\r` followed by U+0307 fuses into an invalid
    # `\ṙ`. The outer base64 keeps the console's own string printing away.
    query = (
        "base64encode(jsonencode({"
        " values = [for v in local.values : base64encode(v)],"
        " keyed = { for k, v in local.keyed : base64encode(k) => v } }))\n"
    )
    result = subprocess.run(
        [terraform, "console"],
        input=query,
        cwd=root,
        env=terraform_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    decoded = json.loads(base64.b64decode(json.loads(result.stdout.strip())))
    values = [base64.b64decode(item).decode("utf-8") for item in decoded["values"]]
    keyed = {base64.b64decode(k).decode("utf-8"): v for k, v in decoded["keyed"].items()}
    assert [(s, got) for s, got in zip(strings, values, strict=True) if s != got] == []
    assert keyed == {value: index for index, value in enumerate(strings)}
