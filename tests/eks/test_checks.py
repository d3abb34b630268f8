"""EKS spec checks: invalid specs, each paired with the exact output `gpuplat validate` gives.

Same format as tests/spec/cases (see tests/spec/test_cases.py); GPUPLAT_UPDATE_CASES=1 rewrites
the expected sections after a deliberate change, for review as a diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.spec.test_cases import parse_case
from tests.support.cli import run

CASES = sorted((Path(__file__).parent / "cases").glob("*.case"))


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_case(case: Path, tmp_path: Path) -> None:
    text = case.read_text(encoding="utf-8")
    args, files, exit_code, expected = parse_case(text)
    for rel, body in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    result = run("validate", *args, cwd=tmp_path)
    if os.environ.get("GPUPLAT_UPDATE_CASES") == "1":
        head = text.split("=== expected exit ")[0]
        case.write_text(
            f"{head}=== expected exit {result.exit_code}\n{result.stderr}", encoding="utf-8"
        )
        pytest.skip("expected output rewritten; review the diff")
    assert expected is not None, f"{case.name} has no '=== expected exit N' section"
    assert result.stderr == expected
    assert result.exit_code == exit_code


def test_every_error_has_a_hint() -> None:
    for case in CASES:
        _, _, _, expected = parse_case(case.read_text(encoding="utf-8"))
        assert expected is not None
        blocks = expected.split("\n\n")
        for block in blocks:
            if block.startswith(("Error:", "Warning:")):
                assert "\nHint: " in block, f"{case.name}: no hint for\n{block}"
