"""format_hcl(): byte-for-byte what `terraform fmt` writes, idempotent, fast, string-safe."""

from __future__ import annotations

import random
import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuplat.hcl.fmt import columns, format_hcl
from gpuplat.hcl.writer import expr, quote
from tests.hcl.hclgen import GRAPHEME_KEYS, DocGen
from tests.support.realparts import terraform_bin, terraform_env

# Hand-picked layouts, each a rule of terraform fmt (all checked against it).
CURATED = [
    # `=` alignment runs and what breaks them.
    "a=1\nbbbb     =    2\n# comment\ncc = 3\nddd = 4\n\neeeee = 5\nf = {\n g = 1\n}\nhh = 6\n",
    "a = 1\nblock {\n  x = 1\n}\nbbb = 2\n",
    "x = [\n  1,\n]\nyy = 2\nzzz = { a = 1 }\n",
    # Trailing comments align in their own runs, after the `=` column is set.
    "a = 1 # one\nbbbb = { c = 1 } # two\nblock {\n  x = 1 // three\n}\nccc = 2 # four\ndd = 3\n",
    "a = { // opens\n  b = 1\n}\n",
    "/* top\n   comment */\na = 1\nb = 2 /* inline */\nccc = 3\n",
    # Heredocs: bodies untouched, interpolations tidied, alignment kept.
    "x = <<EOT\n  ${ var.x }  $${x}  \n   EOT\nyy = 2\n",
    "x = <<-EOT\n  hello   \n    EOT\nyy = 2 # c\nz = 1  # d\n",
    "x = [<<EOT\nfoo\nEOT\n]\ny = trimspace(<<-EOT\n    hi ${ var.x } there  \n    EOT\n)\nzz = 1\n",
    "y = <<EOT\n%{ if var.a ~}\nyes\n%{ endif ~}\nEOT\n",
    # Nesting, brackets closing on shared lines, one-line blocks.
    "list = [\n  {\n    a = 1\n    }, {\n    b = 2\n  }]\n",
    'resource "a" "b" { x = 1 }\nempty {}\nalso_empty {\n}\n',
    "x = merge(\n  var.a,\n  {\n    b = 1\n  },\n)\ny = jsonencode({\n  a = 1\n})\nz = 1\n",
    "x = {\n  for k, v in var.m :\n  k => v\n  if v != null\n}\ny = (\n  var.a\n  ? 1\n  : 2\n)\n",
    'dynamic "s" {\n  for_each = var.s\n  iterator = it\n  content {\n    name = it.key\n'
    "    value_long = it.value\n  }\n}\n",
    # Spacing between tokens.
    "x = a ? b : c\ny = a && !b || c\nz = a == -1\nw = [-1, - 2, 3 - -1, a - b, (-a)]\n"
    "v = a % 2 * -3 / 4\n",
    'v = "abc"[0]\nw = f(a...)\np = provider::aws::arn_parse(x)\nq = a[*].b\nr = a.*.b[0]\n'
    "s = 1.5e+3\nt = -a.b\n",
    'x = [for s in var.list: upper(s) if s != ""]\ny = {for k, v in m: k => v...}\n',
    'x = "%{ if a }y%{ endif }${ {a=1} }"\ny = "%{ for x in var.l }${ x },%{ endfor }"\n',
    "o = { a: 1, b: 2 }\np = {\n  a = 1,\n  bb = 2,\n}\n",
    "\ta\t=\t1\n\t  b   =   [\t1 ,2 ]  \n",
    "ünïcode = 1\nb = 2\n",
    "\n\n\na = 1\n",
    # Terraform's own rewrites: labels, lone interpolations, legacy types.
    'resource aws_instance "web" {\n  count = 1\n}\nresource "a" /* c */ "\\u0041" {}\n',
    'x = "${foo("${bar}")}"\ny = { a = "${var.b}" }\nz = "${~ var.c ~}"\nw = "${var.a}-x"\n'
    'v = "${\n  a ? b : c\n}"\n',
    'variable "a" {\n  type = "list"\n}\nvariable "b" {\n  type = map\n  default = {}\n}\n'
    'variable "c" { type = "map" }\nvariable "d" {\n  type = "string"\n}\n',
    # Widths in grapheme clusters, counted per scanner token.
    "k = {\n" + "".join(f'  "{key}" = 1\n' for key in GRAPHEME_KEYS) + "  x = 2\n}\n",
    "".join(f'k{index} = "{key}" # c\n' for index, key in enumerate(GRAPHEME_KEYS)),
]


def _corpus() -> list[str]:
    docs = list(CURATED)
    docs += [DocGen(random.Random(seed)).document() for seed in range(400)]
    return docs


@pytest.mark.terraform
def test_format_matches_terraform_fmt(tmp_path: Path) -> None:
    terraform = terraform_bin()
    docs = _corpus()
    folder = tmp_path / "docs"
    folder.mkdir()
    for index, doc in enumerate(docs):
        (folder / f"d{index:04d}.tf").write_text(doc, encoding="utf-8")
    result = subprocess.run(
        [terraform, "fmt", "-no-color", "-list=false", str(folder)],
        env=terraform_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr

    mismatched = []
    for index, doc in enumerate(docs):
        expected = (folder / f"d{index:04d}.tf").read_text(encoding="utf-8")
        formatted = format_hcl(doc)
        if formatted != expected:
            mismatched.append((index, doc, expected, formatted))
        assert format_hcl(formatted) == formatted, f"not idempotent on doc {index}"
        assert format_hcl(expected) == expected, f"changed fmt-clean doc {index}"
    assert mismatched == []


@pytest.mark.terraform
def test_labels_terraform_fmt_would_delete_are_kept(tmp_path: Path) -> None:
    # `terraform fmt` 1.11 silently drops a label its scanner splits into
    # several literal tokens (any `$` or `%` besides a lone one or `$${`).
    doc = 'resource "x" "a$b" {\n}\nresource "y" "100%" {\n}\n'
    result = subprocess.run(
        [terraform_bin(), "fmt", "-no-color", "-"],
        input=doc,
        env=terraform_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert format_hcl(doc) == doc
    if result.stdout != doc:  # Terraform still has the bug: make sure it is this one
        assert result.stdout == 'resource "x" {\n}\nresource "y" {\n}\n'


# -- where format_hcl deliberately goes further than terraform fmt -------------
@pytest.mark.parametrize(
    ("source", "formatted"),
    [
        ("a = 1 # note   \n# alone \t\n", "a = 1 # note\n# alone\n"),
        ("/* a  \n b  */\nx = 1\n", "/* a\n b  */\nx = 1\n"),
        ("a = 1\n\n\n", "a = 1\n"),
        ("a = 1   ", "a = 1\n"),
        ("a = 1\r\nb = 2\r\n# c\r\n", "a = 1\nb = 2\n# c\n"),
        ("x = <<EOT\nbody\nEOT   \n", "x = <<EOT\nbody\nEOT\n"),
        ("", ""),
        ("\n \n\t\n", ""),
    ],
)
def test_tidies_what_terraform_leaves(source: str, formatted: str) -> None:
    assert format_hcl(source) == formatted


def test_heredoc_body_is_never_touched() -> None:
    body = "  a  =  1  \n\t# not a comment \t\n}{ ] [ \n  \r\nEOTX\n   $${x} 100% \n"
    doc = f"x = <<-EOT\n{body}  EOT\ny     = 2\n"
    assert format_hcl(doc) == f"x = <<-EOT\n{body}  EOT\ny = 2\n"


@given(st.lists(st.text(), min_size=1, max_size=6))
def test_string_literals_are_never_changed(texts: list[str]) -> None:
    literals = [quote(unicodedata.normalize("NFC", text)) for text in texts]
    doc = "".join(f"  k{index}\t=  {literal}  # c\n" for index, literal in enumerate(literals))
    doc = "block  {\n" + doc + "\n  obj = {" + literals[0] + " = [" + literals[-1] + "]}\n}\n"
    formatted = format_hcl(doc)
    for index, literal in enumerate(literals):
        assert re.search(rf"^  k{index} += {re.escape(literal)} +# c$", formatted, re.MULTILINE)
    assert f"  obj = {{ {literals[0]} = [{literals[-1]}] }}\n" in formatted


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_idempotent(rnd: random.Random) -> None:
    once = format_hcl(DocGen(rnd).document())
    assert format_hcl(once) == once


@pytest.mark.parametrize(
    "broken",
    [
        'a = "open\n',
        'a = "${x\n',
        "a = <<EOT\nnever closed\n",
        "a = 1 \x00\n",
        "a = 1 ~} b\n",
        'a = "x" \r b\n',
        "a = `x`\n",
    ],
)
def test_rejects_text_that_is_not_hcl(broken: str) -> None:
    with pytest.raises(ValueError, match="HCL"):
        format_hcl(broken)


# -- widths ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("token", "width"),
    [
        ("abc", 3),
        ('"é"', 3),
        ('"e\u0301"', 3),  # one cluster
        ('"a$\u0301"', 5),  # the mark sits in its own scanner token after `$`
        ('"🇺🇸"', 3),
        ('"🇺🇸🇫"', 4),
        ('"👍🏽"', 3),
        ('"👨\u200d👩\u200d👧"', 3),
        ('"각"', 3),
        ('"\u1100\u1161\u11a8"', 3),
        ('"क्षि"', 4),  # Unicode 15.0 rules, as Terraform's go-textseg: no GB9c
        ('"ｆｕｌｌ"', 6),  # clusters, not display width
        ("ünïcode", 7),
    ],
)
def test_columns_counts_like_terraform(token: str, width: int) -> None:
    assert columns(token) == width


def test_columns_takes_one_token() -> None:
    with pytest.raises(ValueError, match="one HCL token"):
        columns('"é" x')


# -- speed ----------------------------------------------------------------------
def _node_pools(count: int) -> str:
    rnd = random.Random(3)
    parts = []
    for index in range(count):
        labels = {f"team-{n}": f"v{n}" * rnd.randint(1, 3) for n in range(rnd.randint(0, 4))}
        parts.append(
            f'resource "google_container_node_pool" "pool_{index}" {{\n'
            f"  name = {quote(f'pool-{index}')}\n"
            "  cluster = google_container_cluster.main.id\n"
            f"  node_count = {rnd.randint(1, 64)}\n\n"
            "  node_config {\n"
            '    machine_type = "a3-highgpu-8g"\n'
            f"    labels = {expr(labels, 2)}\n"
            "    guest_accelerator {\n"
            '      type = "nvidia-h100-80gb"\n'
            "      count = 8\n"
            "    }\n"
            "  }\n"
            f"  # pool {index}\n"
            "  autoscaling {\n"
            "    min_node_count = 0 # floor\n"
            f"    max_node_count = {rnd.randint(1, 9)} # ceiling\n"
            "  }\n"
            "}\n\n"
        )
    return "".join(parts)


def test_one_megabyte_document_is_idempotent() -> None:
    # Its speed is measured by bench/render.py, not here: timings belong in benchmarks.
    doc = _node_pools(2400)
    assert len(doc.encode()) > 1_000_000
    formatted = format_hcl(doc)
    assert format_hcl(formatted) == formatted
