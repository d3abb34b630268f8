"""`gpuplat conformance`: defaults, output streams, exit codes and errors a person can act on."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.errors import ExitCode
from tests.support.cli import run
from tests.support.specs import project

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _bundled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPUPLAT_PROVIDER_SCHEMAS", raising=False)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = project(tmp_path_factory.mktemp("conformance"), example="eks-l4-vllm")
    assert run("render", cwd=folder).exit_code == 0
    return folder


def test_checks_the_rendered_project_by_default(rendered: Path) -> None:
    done = run("conformance", cwd=rendered)
    assert done.exit_code == ExitCode.OK, done.stderr
    assert done.stdout == ""
    summary = done.stderr.splitlines()[-1]
    assert summary.startswith(f"{_files(rendered)} files, ")
    assert ", 0 violations" in summary and "(bundled schemas) in " in summary


def _files(root: Path) -> int:
    return sum(1 for d in ("envs", "modules") for _ in (root / d).rglob("*.tf"))


def test_violations_go_to_stdout_and_exit_11(rendered: Path) -> None:
    bad = FIXTURES / "negative" / "unknown-attribute.tf"
    done = run("conformance", rendered / "envs", bad, cwd=rendered)
    assert done.exit_code == ExitCode.NONCONFORMANT == 11
    lines = done.stdout.splitlines()
    assert len(lines) == 7 and all(line.startswith(f"{bad}:") for line in lines)
    assert (
        "unknown attribute `node_cont`; did you mean `node_count`? [unknown-attribute]" in lines[0]
    )
    assert "7 violations (unknown-attribute: 7)" in done.stderr


def test_types_outside_the_bundled_set_are_notes(tmp_path: Path) -> None:
    done = run("conformance", FIXTURES / "trimmed", cwd=tmp_path)
    assert done.exit_code == ExitCode.OK
    assert done.stdout == ""
    assert done.stderr.count("[type-not-checked]") == 2
    assert "0 violations, 2 notes (bundled schemas)" in done.stderr


def test_full_schemas_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("GPUPLAT_PROVIDER_SCHEMAS", str(tmp_path / "empty"))
    done = run("conformance", FIXTURES / "trimmed", cwd=tmp_path)
    # An override is what is used, not silently topped up with the bundled set.
    assert done.exit_code == ExitCode.NONCONFORMANT
    assert "no schema loaded for provider `google` (loaded: none)" in done.stdout
    assert f"(schemas in {tmp_path / 'empty'})" in done.stderr


def test_nothing_rendered_says_what_to_do(tmp_path: Path) -> None:
    done = run("conformance", cwd=tmp_path)
    assert done.exit_code == ExitCode.ERROR
    assert f"Error: nothing to check: {tmp_path} has no rendered envs/ or modules/" in done.stderr
    assert "Hint: run `gpuplat render` first, or name the .tf files or folders" in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_path_and_schema_dir_are_clear_errors(tmp_path: Path) -> None:
    done = run("conformance", tmp_path / "nope.tf", cwd=tmp_path)
    assert done.exit_code == ExitCode.ERROR
    assert f"cannot read the Terraform to check: no such file or directory: {tmp_path}/nope.tf" in (
        done.stderr
    )
    done = run("conformance", "--schemas", tmp_path / "none", FIXTURES / "trimmed", cwd=tmp_path)
    assert done.exit_code == ExitCode.ERROR
    assert "cannot load provider schemas: provider schema directory not found" in done.stderr
    bad = tmp_path / "google-1.0.0.json"
    bad.write_text("[]", encoding="utf-8")
    done = run("conformance", "--extra", bad, FIXTURES / "trimmed", cwd=tmp_path)
    assert done.exit_code == ExitCode.ERROR
    assert "no provider_schemas object; not a providers schema file" in done.stderr
