"""`validate` answers from its record while nothing it depends on changed, and only then."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplat.app import validated
from gpuplat.spec import load
from tests.support.cli import Run, run


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    assert run("init", root).exit_code == 0
    return root


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Each real load of the spec (a validate not answered from its record)."""
    done: list[Path] = []
    real = load.load_project

    def counted(root: Path, *args: object, **kwargs: object) -> load.Project:
        done.append(root)
        return real(root, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(load, "load_project", counted)
    return done


def _same(a: Run, b: Run) -> bool:
    return (a.exit_code, a.stdout, a.stderr) == (b.exit_code, b.stdout, b.stderr)


def test_an_unchanged_project_is_answered_as_the_last_validate_did(
    project: Path, loads: list[Path]
) -> None:
    first = run("validate", cwd=project)
    assert first.exit_code == 0 and "valid: dev, prod" in first.stderr
    assert _same(run("validate", cwd=project), first)
    as_json = run("validate", "--json", cwd=project)
    assert _same(run("validate", "--json", cwd=project), as_json)
    assert len(loads) == 1  # the JSON form is the same result, printed otherwise
    dev = run("validate", "-e", "dev", cwd=project)
    assert "valid: dev\n" in dev.stderr and len(loads) == 2  # other options: their own answer
    assert _same(run("validate", "-e", "dev", cwd=project), dev) and len(loads) == 2


def test_an_edited_spec_or_overlay_is_validated_again(project: Path, loads: list[Path]) -> None:
    assert run("validate", cwd=project).exit_code == 0
    spec = project / "gpuplat.yaml"
    good = spec.read_text()
    spec.write_text(good.replace("machine_type: g2-standard-8", "machine_type: g2-standard-7"))
    bad = run("validate", cwd=project)
    assert bad.exit_code != 0 and "g2-standard-7" in bad.stderr
    assert _same(run("validate", cwd=project), bad)  # an invalid spec is never recorded
    assert len(loads) == 3
    spec.write_text(good)  # the bytes recorded: answered from the record
    assert run("validate", cwd=project).exit_code == 0
    assert len(loads) == 3
    overlay = project / "envs" / "prod.yaml"
    overlay.write_text(overlay.read_text() + "\nclusters: oops\n")
    assert run("validate", cwd=project).exit_code != 0
    overlay.write_text(overlay.read_text().replace("\nclusters: oops\n", "\n# reviewed\n"))
    assert run("validate", cwd=project).exit_code == 0
    assert len(loads) == 5
    (project / "envs" / "staging.yaml").write_text("{}\n")  # a stray overlay file
    stray = run("validate", cwd=project)
    assert stray.exit_code != 0 and "envs/staging.yaml" in stray.stderr
    assert len(loads) == 6


def test_another_day_or_a_doubtful_record_is_validated_again(
    project: Path, loads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("validate", cwd=project).exit_code == 0
    monkeypatch.setenv("GPUPLAT_TODAY", "2031-01-02")  # the support calendar moves on
    run("validate", cwd=project)
    assert len(loads) == 2
    monkeypatch.delenv("GPUPLAT_TODAY")
    run("validate", cwd=project)
    entry = validated._entry(project)
    entry.chmod(entry.stat().st_mode | stat.S_IWOTH)  # another user could have written it
    assert run("validate", cwd=project).exit_code == 0
    entry.write_text("{not json")
    assert run("validate", cwd=project).exit_code == 0
    assert len(loads) == 5


def test_a_recorded_answer_loads_no_models(project: Path) -> None:
    code = (
        "import sys\n"
        "sys.argv = ['gpuplat', 'validate']\n"
        "from gpuplat.launch import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    print(sorted(m for m in ('pydantic', 'yaml', 'jinja2') if m in sys.modules))\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, check=False
        )
        for _ in range(2)
    ]
    assert runs[0].returncode == runs[1].returncode == 0, runs[0].stderr
    assert runs[0].stdout != "[]\n"
    assert runs[1].stdout == "[]\n"
    assert runs[1].stderr == runs[0].stderr
