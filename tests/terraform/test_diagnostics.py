"""Terraform diagnostics from `validate -json` and streams, and how they read as lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.terraform import DiagnosticEvent, parse_stream, parse_validate
from gpuplat.terraform.diagnostics import TerraformDiagnostic, diagnostic_from_json
from tests.terraform import read_fixture


def test_validate_json_with_errors() -> None:
    result = parse_validate(read_fixture("validate/invalid.json"))
    assert not result.valid
    assert result.warnings == ()
    # Terraform validates blocks concurrently, so the order of its diagnostics varies.
    assert sorted((d.summary, d.filename, d.line, d.column) for d in result.errors) == [
        ("Reference to undeclared input variable", "main.tf", 6, 11),
        ("Unsupported argument", "main.tf", 2, 3),
    ]


def test_to_lines_reads_like_the_house_style() -> None:
    errors = parse_validate(read_fixture("validate/invalid.json")).errors
    (unsupported,) = [d for d in errors if d.summary == "Unsupported argument"]
    assert unsupported.to_lines(Path("envs/dev/infra")) == [
        "Error: Unsupported argument",
        "  envs/dev/infra/main.tf:2:3",
        '    2 |   inputs = "typo"',
        '  An argument named "inputs" is not expected here. Did you mean "input"?',
    ]


def test_to_lines_with_address_and_multiline_detail() -> None:
    stream = parse_stream(read_fixture("events/apply_error.jsonl").splitlines())
    (diag,) = [e.diagnostic for e in stream if isinstance(e, DiagnosticEvent)]
    assert diag.to_lines() == [
        "Error: local-exec provisioner error",
        "  main.tf:7:28  terraform_data.boom",
        '    7 |   provisioner "local-exec" {',
        "  Error running command 'echo about to fail; false': exit status 1. Output: about to fail",
    ]
    assert diag.to_json()["line"] == 7


def test_a_diagnostic_without_range() -> None:
    diag = diagnostic_from_json({"severity": "warning", "summary": "Deprecated", "detail": ""})
    assert diag == TerraformDiagnostic(severity="warning", summary="Deprecated")
    assert diag.location() is None
    assert diag.to_lines() == ["Warning: Deprecated"]
    assert diagnostic_from_json({"severity": "fatal?", "summary": "x"}).is_error


def test_snippet_values_are_kept() -> None:
    diag = diagnostic_from_json(
        {
            "severity": "error",
            "summary": "Invalid value",
            "range": {"filename": "x.tf", "start": {"line": 3, "column": 5}},
            "snippet": {
                "code": "  count = var.n",
                "start_line": 3,
                "values": [{"traversal": "var.n", "statement": "is -1"}],
            },
        }
    )
    assert diag.to_lines()[2:] == ["    3 |   count = var.n", "      var.n is -1"]


def test_validate_rejects_other_documents() -> None:
    with pytest.raises(ValueError, match="validate"):
        parse_validate('{"format_version": "1.0"}')
