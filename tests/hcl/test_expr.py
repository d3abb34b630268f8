"""expr(), ident() and raw(): exact HCL text, determinism, fmt-clean output."""

from __future__ import annotations

import base64
import enum
import json
import random
import subprocess
import unicodedata
from collections import OrderedDict
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuplat.hcl.writer import JINJA_FILTERS, Raw, expr, ident, quote, raw
from tests.hcl.hclgen import GRAPHEME_KEYS, NASTY_FRAGMENTS
from tests.support.realparts import terraform_bin, terraform_env
from tests.support.tffmt import fmt_problems


class Size(enum.IntEnum):
    BIG = 8


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (False, "false"),
        (0, "0"),
        (-5, "-5"),
        (10**30, "1000000000000000000000000000000"),
        (Size.BIG, "8"),
        (0.1, "0.1"),
        (1.0, "1.0"),
        (-0.25, "-0.25"),
        (1e16, "1e+16"),
        (1.5e-7, "1.5e-07"),
        ("x", '"x"'),
        ("${x}", '"$${x}"'),
        (raw("var.region"), "var.region"),
        (raw('module.net["a"].ids'), 'module.net["a"].ids'),
        ([], "[]"),
        ((), "[]"),
        ({}, "{}"),
        ([1, "a", None, True, raw("var.x")], '[1, "a", null, true, var.x]'),
        (("a", 2.5), '["a", 2.5]'),
    ],
)
def test_scalars_and_short_collections(value: object, text: str) -> None:
    assert expr(value) == text


def test_object_keys_sorted_and_equals_aligned() -> None:
    assert expr({"zone": "a", "id": 1, "machine_type": "x"}) == (
        '{\n  id           = 1\n  machine_type = "x"\n  zone         = "a"\n}'
    )


def test_keys_that_could_change_meaning_are_quoted() -> None:
    value = {"for": 1, "true": 2, "null": 3, "in": 4, "a b": 5, "1x": 6, "é": 7, "ok-key": 8}
    assert expr(value) == (
        "{\n"
        '  "1x"     = 6\n'
        '  "a b"    = 5\n'
        '  "for"    = 1\n'
        '  "in"     = 4\n'
        '  "null"   = 3\n'
        "  ok-key   = 8\n"
        '  "true"   = 2\n'
        '  "\\u00e9" = 7\n'
        "}"
    )


def test_multi_line_value_breaks_the_alignment_run() -> None:
    value = {"a": 1, "bb": {"c": [{"d": 1}, {}]}, "ccc": 2, "dddd": 3}
    assert expr(value) == (
        "{\n"
        "  a = 1\n"
        "  bb = {\n"
        "    c = [\n"
        "      {\n"
        "        d = 1\n"
        "      },\n"
        "      {},\n"
        "    ]\n"
        "  }\n"
        "  ccc  = 2\n"
        "  dddd = 3\n"
        "}"
    )


def test_indent_lines_continuation_up() -> None:
    assert expr({"a": [1], "b": {"c": True}}, indent=2) == (
        "{\n      a = [1]\n      b = {\n        c = true\n      }\n    }"
    )
    assert expr(["x" * 40, "y" * 40], indent=1) == (
        '[\n    "' + "x" * 40 + '",\n    "' + "y" * 40 + '",\n  ]'
    )


def test_long_scalar_lists_go_multi_line() -> None:
    items = [f"item-{index:02d}" for index in range(12)]
    assert expr(items) == "[\n" + "".join(f'  "{item}",\n' for item in items) + "]"
    assert expr(items[:3]) == '["item-00", "item-01", "item-02"]'


def test_non_ascii_keys_are_written_in_ascii() -> None:
    # terraform fmt would align raw keys by grapheme clusters; escaped, a key is as wide as
    # it is long. Values keep their characters (their width never matters).
    assert expr({"🇺🇸": "é", "é": 2, "abcd": 3}) == (
        "{\n"
        "  abcd                   = 3\n"
        '  "\\u00e9"               = 2\n'
        '  "\\U0001f1fa\\U0001f1f8" = "é"\n'
        "}"
    )


def test_key_order_never_depends_on_insertion_order() -> None:
    forward = OrderedDict((key, index) for index, key in enumerate("abcdef"))
    backward = OrderedDict(reversed(list(forward.items())))
    assert expr({"m": forward}) == expr({"m": backward})


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_floats_are_rejected(bad: float) -> None:
    with pytest.raises(ValueError, match="HCL"):
        expr({"x": [bad]})


@pytest.mark.parametrize("bad", [{1, 2}, b"x", object(), {1: "a"}, {("a",): 1}, frozenset()])
def test_unsupported_values_and_keys_are_rejected(bad: object) -> None:
    with pytest.raises(TypeError):
        expr(bad)


def test_indent_must_be_a_non_negative_int() -> None:
    with pytest.raises(TypeError):
        expr(1, indent=True)
    with pytest.raises(ValueError, match="negative"):
        expr(1, indent=-1)


def test_strings_inside_collections_still_go_through_quote() -> None:
    with pytest.raises(ValueError, match="NFC"):
        expr({"k": ["e\u0301"]})
    with pytest.raises(ValueError, match="NFC"):
        expr({"e\u0301": 1})


# -- raw --------------------------------------------------------------------
def test_raw_is_an_explicit_typed_marker() -> None:
    marker = raw("var.x")
    assert isinstance(marker, Raw)
    assert marker == Raw("var.x")
    assert str(marker) == "var.x"
    assert {marker: 1}[Raw("var.x")] == 1
    with pytest.raises(AttributeError):
        marker.text = "other"  # type: ignore[misc]


@pytest.mark.parametrize("bad", ["", "   ", "a\nb", "a\rb"])
def test_raw_rejects_blank_or_multi_line_text(bad: str) -> None:
    with pytest.raises(ValueError, match="raw"):
        raw(bad)


def test_raw_rejects_non_str() -> None:
    with pytest.raises(TypeError, match="raw"):
        raw(1)  # type: ignore[arg-type]


# -- ident ------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a", "_x", "gpu-pool_1", "A9", "for", "null"])
def test_ident_accepts_identifiers(name: str) -> None:
    assert ident(name) == name


@pytest.mark.parametrize("name", ["", "1a", "-a", "a b", "a.b", "é", "a\n", "a$", '"a"', "a\u200b"])
def test_ident_rejects_everything_else(name: str) -> None:
    with pytest.raises(ValueError, match="not a valid HCL identifier"):
        ident(name)


def test_ident_rejects_non_str() -> None:
    with pytest.raises(TypeError, match="ident"):
        ident(None)  # type: ignore[arg-type]


# -- Jinja ------------------------------------------------------------------
def test_jinja_filters() -> None:
    assert {"q", "hcl", "ident"} <= set(JINJA_FILTERS)
    env = jinja2.Environment(
        autoescape=False, keep_trailing_newline=True, undefined=jinja2.StrictUndefined
    )
    env.filters.update(JINJA_FILTERS)
    template = env.from_string(
        'module "{{ name | ident }}" {\n  name = {{ title | q }}\n  labels = {{ labels | hcl(1) }}\n}\n'
    )
    text = template.render(name="pool_a", title='A "${x}"', labels={"b": "2", "a": "1"})
    assert text == (
        'module "pool_a" {\n'
        '  name = "A \\"$${x}\\""\n'
        "  labels = {\n"
        '    a = "1"\n'
        '    b = "2"\n'
        "  }\n"
        "}\n"
    )


# -- properties ---------------------------------------------------------------
KEYS = st.one_of(
    st.sampled_from(["a", "bb", "machine_type", "for", "in", "true", "x-y", "é", "🇺🇸", "a b"]),
    st.text(max_size=8),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from([raw("var.x"), raw("module.a.b[0]")]),
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(KEYS, children, max_size=5),
    ),
    max_leaves=20,
)


def _nfc_only(value: object) -> bool:
    try:
        expr(value)
    except ValueError:
        return False
    return True


@pytest.mark.terraform
def test_expr_output_is_already_fmt_clean(tmp_path: Path) -> None:
    # Hypothesis generates the values; one real `terraform fmt -check` judges them all.
    folder = tmp_path / "docs"
    folder.mkdir()
    written: list[Path] = []

    @settings(max_examples=300, deadline=None, database=None)
    @given(VALUES.filter(_nfc_only), st.integers(min_value=0, max_value=3))
    def document(value: object, level: int) -> None:
        text = expr(value, level)
        # Embed at the promised nesting level, inside blocks, between other attributes.
        pad = "  " * level
        doc = "".join(f"{'  ' * n}b{n} {{\n" for n in range(level))
        doc += f"{pad}first = 0\n\n{pad}value = {text}\n\n{pad}other_attribute = 1\n"
        doc += "".join(f"{'  ' * n}}}\n" for n in reversed(range(level)))
        path = folder / f"d{len(written):04d}.tf"
        path.write_text(doc, encoding="utf-8")
        written.append(path)

    document()
    assert len(written) >= 100
    assert fmt_problems(folder, tmp_path) == ""


@given(st.dictionaries(KEYS, SCALARS, max_size=8).filter(_nfc_only), st.randoms())
def test_expr_is_deterministic(value: dict[str, Any], rnd: random.Random) -> None:
    items = list(value.items())
    rnd.shuffle(items)
    assert expr(dict(items)) == expr(value)


# -- the real thing -------------------------------------------------------------
WIDE_KEYS = [k for k in GRAPHEME_KEYS if unicodedata.is_normalized("NFC", k)]


def _random_value(rnd: random.Random, depth: int = 0) -> object:
    roll = rnd.random()
    if depth > 2 or roll < 0.5:
        return rnd.choice(
            [
                None,
                True,
                False,
                rnd.randint(-(10**12), 10**12),
                rnd.choice([0.1, -2.5, 1e16, 1.5e-7, 3.0]),
                "".join(rnd.choices(NASTY_FRAGMENTS, k=rnd.randint(0, 4))),
            ]
        )
    if roll < 0.75:
        return [_random_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    keys = ["a", "machine_type", "for", "true", "a b", "é", "${x}", "", "z-z", *WIDE_KEYS]
    return {
        rnd.choice(keys) + str(index): _random_value(rnd, depth + 1)
        for index in range(rnd.randint(0, 5))
    }


@pytest.mark.terraform
def test_terraform_agrees_on_layout_and_values(tmp_path: Path) -> None:
    terraform = terraform_bin()
    rnd = random.Random(7)
    values = [_random_value(rnd) for _ in range(150)]
    values += [{"k": _random_value(rnd, 1), "for": [1, {"in": None}]}]
    root = tmp_path / "root"
    root.mkdir()
    body = "".join(f"  v{index:03d} = {expr(value, 1)}\n" for index, value in enumerate(values))
    (root / "main.tf").write_text(f"locals {{\n{body}}}\n", encoding="utf-8")
    env = terraform_env(tmp_path)

    check = subprocess.run(
        [terraform, "fmt", "-check", "-diff", "-no-color", str(root)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr

    listing = ", ".join(f"local.v{index:03d}" for index in range(len(values)))
    query = f"base64encode(jsonencode([{listing}]))\n"
    result = subprocess.run(
        [terraform, "console"],
        input=query,
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(base64.b64decode(json.loads(result.stdout.strip()))) == values
    assert quote("x") == '"x"'  # the same quote() wrote every string above
