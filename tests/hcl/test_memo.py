"""The writer remembers text by value: what it gives back is what it would write afresh."""

from __future__ import annotations

import random

from gpuplat.hcl import writer
from gpuplat.hcl.writer import Raw, attributes, expr


def _fresh(mapping: dict[str, object], indent: int) -> str:
    """attributes() written without any remembered text."""
    writer._KEYS.clear()
    writer._SEGMENTS.clear()
    writer.QUOTED.clear()
    entries = list(mapping.items())
    return "\n".join(writer._aligned(entries, indent))


def _value(rng: random.Random, depth: int = 0) -> object:
    pick = rng.randrange(9 if depth < 2 else 6)
    scalars: list[object] = [True, 1, 0, False, None, "1", "true", Raw("var.x"), "a b"]
    if pick < 6:
        return rng.choice(scalars)
    if pick == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 7:
        return (1.0, -0.0, 0.0)[rng.randrange(3)]
    return {rng.choice("abcde"): _value(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_values_equal_in_python_but_written_differently_are_not_confused() -> None:
    # True == 1 and 0.0 == -0.0 with equal hashes: the remembered text must tell them apart.
    assert attributes({"a": {"x": True}}) == "  a = {\n    x = true\n  }"
    assert attributes({"a": {"x": 1}}) == "  a = {\n    x = 1\n  }"
    assert expr({"x": 0.0}) == "{\n  x = 0.0\n}"
    assert expr({"x": -0.0}) == "{\n  x = -0.0\n}"
    assert attributes({"n": [1, True], "m": {"k": "v"}}) != attributes(
        {"n": [True, 1], "m": {"k": "v"}}
    )


def test_remembered_text_is_the_text_written_afresh() -> None:
    rng = random.Random(26)
    cases = [{f"k{i}": _value(rng) for i in range(rng.randrange(1, 8))} for _ in range(400)]
    remembered = [(attributes(case, 1), attributes(case, 2)) for case in cases * 2]
    for case, (one, two) in zip(cases * 2, remembered, strict=True):
        assert one == _fresh(case, 1)
        assert two == _fresh(case, 2)
