"""The launcher's answer to a render with nothing to do: exactly the full render's, or none.

Every case where something a render depends on changed must make :func:`answer` step aside
(None), so the full command renders; a real render of the same project then changes files.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpuplat.tree import fingerprint, stats, uptodate
from tests.support.cli import run

SAID = "up to date: dev, prod (nothing written)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    assert run("init", root).exit_code == 0
    assert run("render", cwd=root).exit_code == 0
    time.sleep(stats.RACY_NS / 1e9 * 2)  # past the margin: the status record is trusted
    return root


def test_an_unchanged_project_is_answered(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert uptodate.answer(["render"], cwd=project) == 0
    assert capsys.readouterr().err == SAID
    assert uptodate.answer(["-C", str(project), "render", "-e", "prod"], cwd=Path("/")) == 0
    assert capsys.readouterr().err == "up to date: prod (nothing written)\n"


def test_the_launcher_answers_before_click_and_the_models(project: Path) -> None:
    code = (
        "import sys\n"
        "sys.argv = ['gpuplat', 'render']\n"
        "from gpuplat.launch import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    print(sorted(m for m in ('click', 'pydantic', 'jinja2', 'yaml') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", SAID)


def _renders(project: Path) -> bool:
    """Whether the full render finds anything to write (what the launcher must not hide)."""
    result = run("render", cwd=project)
    assert result.exit_code == 0, result.stderr
    return "nothing written" not in result.stderr


def test_a_changed_spec_goes_to_the_full_render(project: Path) -> None:
    spec = project / "gpuplat.yaml"
    text = spec.read_text()
    assert "team: ml-platform" in text
    spec.write_text(text.replace("team: ml-platform", "team: ml-serving", 1))
    assert uptodate.answer(["render"], cwd=project) is None
    assert _renders(project)


def test_a_changed_overlay_goes_to_the_full_render(project: Path) -> None:
    overlay = project / "envs" / "dev.yaml"
    overlay.write_text(overlay.read_text() + "\n# reviewed\n")
    assert uptodate.answer(["render", "-e", "dev"], cwd=project) is None
    # A new overlay file (an undeclared environment) is an input of every environment.
    run("render", cwd=project)
    (project / "envs" / "staging.yaml").write_text("{}\n")
    assert uptodate.answer(["render", "-e", "prod"], cwd=project) is None


def test_an_edited_output_goes_to_the_full_render(project: Path) -> None:
    main = project / "envs" / "dev" / next(p.name for p in (project / "envs/dev").iterdir())
    target = next(main.rglob("main.tf"))
    target.write_text(target.read_text() + "\n")
    assert uptodate.answer(["render"], cwd=project) is None
    assert _renders(project)


def test_a_deleted_output_goes_to_the_full_render(project: Path) -> None:
    target = next((project / "envs" / "prod").rglob("versions.tf"))
    target.unlink()
    assert uptodate.answer(["render"], cwd=project) is None
    assert _renders(project)
    assert target.is_file()


def test_a_stray_file_in_a_module_folder_goes_to_the_full_render(project: Path) -> None:
    folder = next(p for p in (project / "modules").iterdir())
    (next(folder.iterdir()) / "extra.tf").write_text("# mine\n")
    assert uptodate.answer(["render"], cwd=project) is None


def test_another_gpuplat_version_goes_to_the_full_render(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fingerprint, "__version__", "99.0.0")
    monkeypatch.setattr(fingerprint, "_CODE", [])
    assert uptodate.answer(["render"], cwd=project) is None


def test_another_day_goes_to_the_full_render(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPUPLAT_TODAY", "2099-01-01")
    assert uptodate.answer(["render"], cwd=project) is None
    monkeypatch.setenv("GPUPLAT_TODAY", "not a day")  # the full render says what is wrong
    assert uptodate.answer(["render"], cwd=project) is None


def test_the_record_holds_from_any_folder_and_with_c(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files are recorded by their path in the project: the same record, wherever gpuplat runs."""
    hashed: list[str] = []
    real = stats._hash
    monkeypatch.setattr(stats, "_hash", lambda path: (hashed.append(path), real(path))[1])
    assert uptodate.answer(["render"], cwd=project / "envs") == 0
    assert uptodate.answer(["render", "-C", "p"], cwd=project.parent) == 0
    assert uptodate.answer(["-C", "..", "render"], cwd=project / "modules") == 0
    monkeypatch.chdir(project)
    assert uptodate.answer(["render"]) == 0
    assert capsys.readouterr().err == SAID * 4
    assert [h for h in hashed if not Path(h).is_absolute()] == []  # no project file read again
    # An edit is seen whichever way the project is named.
    target = next((project / "envs").rglob("outputs.tf"))
    target.write_text(target.read_text() + "\n")
    assert uptodate.answer(["render", "-C", "p"], cwd=project.parent) is None


@pytest.mark.parametrize(
    "args",
    [
        ["render", "--dry-run"],
        ["render", "--check"],
        ["render", "--manifests", "k8s"],
        ["--debug", "render"],
        ["render", "--help"],
        ["render", "-e"],
        ["render", "--", "-e", "dev"],
        ["-C", "p", "-C", "p", "render"],
        ["plan", "render"],
        ["validate"],
    ],
)
def test_any_other_command_line_goes_to_the_full_command(project: Path, args: list[str]) -> None:
    assert uptodate.answer(args, cwd=project.parent if "p" in args else project) is None


def test_unknown_environment_goes_to_the_full_render(project: Path) -> None:
    assert uptodate.answer(["render", "--env=nope"], cwd=project) is None
    assert uptodate.answer(["render", "-enope"], cwd=project) is None


def test_a_held_lock_or_a_killed_render_goes_to_the_full_render(project: Path) -> None:
    fd = os.open(project / uptodate.LOCK, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert uptodate.answer(["render"], cwd=project) is None
    finally:
        os.close(fd)
    (project / uptodate.TMP / "stage-12345").mkdir(parents=True)
    assert uptodate.answer(["render"], cwd=project) is None
    assert run("render", cwd=project).stderr == SAID  # the full render cleared it away
    assert not (project / uptodate.TMP / "stage-12345").exists()
