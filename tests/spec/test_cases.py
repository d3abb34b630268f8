"""Invalid (and tricky) specs, each paired with the exact output `gpuplat validate` must give.

Each ``cases/*.case`` file holds the files of one project (``=== <path>`` sections), optional
``# args:`` for validate, and an ``=== expected exit N`` section with the exact stderr. Set
GPUPLAT_UPDATE_CASES=1 to rewrite the expected sections after a deliberate change, then review
the diff: the expectations are the specification of the error messages.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.support.cli import run

CASES = sorted((Path(__file__).parent / "cases").glob("*.case"))
_SECTION = re.compile(r"^=== (.+)$", re.MULTILINE)


def parse_case(text: str) -> tuple[list[str], dict[str, str], int | None, str | None]:
    header, *rest = _SECTION.split(text)
    args: list[str] = []
    for line in header.splitlines():
        if line.startswith("# args:"):
            args = line.split(":", 1)[1].split()
    files: dict[str, str] = {}
    exit_code: int | None = None
    expected: str | None = None
    for name, body in zip(rest[::2], rest[1::2], strict=True):
        body = body[1:]  # the newline after the section header
        if name.startswith("expected exit "):
            exit_code = int(name.removeprefix("expected exit "))
            expected = body
        else:
            files[name] = body
    return args, files, exit_code, expected


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_case(case: Path, tmp_path: Path) -> None:
    text = case.read_text(encoding="utf-8")
    args, files, exit_code, expected = parse_case(text)
    for rel, body in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
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
    assert result.stdout == ""
    # validate never writes a file, valid spec or not
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_there_are_enough_cases() -> None:
    invalid = [c for c in CASES if parse_case(c.read_text(encoding="utf-8"))[2] != 0]
    assert len(invalid) >= 40
