"""One check parses each distinct .tf text once: a file read by several passes (file checker,
provider aliases, module calls) or copied into several trees is parsed a single time, and the
findings are the ones each copy gets when checked on its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplat.conformance import check, hclread, load_schemas
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.report import CheckReport

FIXTURES = Path(__file__).parent / "fixtures"
BROKEN = 'resource "aws_iam_role" "x" {\n  name = \n}\n'


def _tree(root: Path) -> Path:
    """The module-call fixture with the modules it calls, and a file that does not parse."""
    shutil.copytree(FIXTURES / "calls", root / "calls")
    shutil.copytree(FIXTURES / "modules", root / "modules")
    (root / "calls" / "broken.tf").write_text(BROKEN)
    return root


def _found(report: CheckReport, root: Path) -> list[tuple[str, int, str, str]]:
    return sorted(
        (str(v.file.relative_to(root)), v.line, v.code, v.address)
        for v in report.violations
        if v.file.is_relative_to(root)
    )


def test_each_distinct_text_is_parsed_once_and_every_copy_gets_its_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schemas = load_schemas(BUNDLED)
    one = _tree(tmp_path / "one")
    alone = check([one / "calls"], schemas)
    two = _tree(tmp_path / "two")
    texts = {p.read_text() for p in (one / "calls").glob("*.tf")}
    texts |= {p.read_text() for p in (one / "modules" / "gpu-pool" / "1.0.0").glob("*.tf")}

    real = hclread.parses
    calls: list[str] = []

    def counted(text: str) -> object:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(hclread, "parses", counted)
    both = check([one / "calls", two / "calls"], schemas)

    assert sorted(calls) == sorted(texts)  # every distinct text once, nothing twice
    expected = _found(alone, one)
    assert ("calls/broken.tf", 2, "parse-error", "broken.tf") in expected
    assert ("calls/main.tf", 9, "module-missing-variable", "module.pool_missing") in expected
    assert _found(both, one) == expected
    assert _found(both, two) == expected
