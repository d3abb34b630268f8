"""The command line as a whole: version, usage errors, internal errors, colour."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gpuplat import __version__
from gpuplat.console import Console
from gpuplat.errors import GpuplatError
from tests.support.cli import run


def test_version() -> None:
    result = run("--version")
    assert (result.exit_code, result.stdout) == (0, f"gpuplat {__version__}\n")


def test_usage_error_exits_2() -> None:
    result = run("validate", "--no-such-option")
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: No such option '--no-such-option'.\n")
    assert result.stderr.startswith("Usage: gpuplat validate [OPTIONS]\n")


def test_unknown_command_exits_2() -> None:
    assert run("frobnicate").exit_code == 2


def test_internal_error_exits_3_and_writes_a_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gpuplat.app.validate as validate_app

    def boom(*_args: object, **_kw: object) -> None:
        raise RuntimeError("kaput")

    monkeypatch.setattr(validate_app, "validate_project", boom)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = run("validate", cwd=tmp_path)
    assert result.exit_code == 3
    assert result.stderr.startswith(
        "Error: internal error: gpuplat hit a bug\nHint: the traceback is in "
    )
    assert "Traceback" not in result.stderr
    logs = list(tmp_path.glob("gpuplat-crash-*.log"))
    assert len(logs) == 1
    assert "RuntimeError: kaput" in logs[0].read_text(encoding="utf-8")


def test_debug_shows_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gpuplat.app.validate as validate_app

    def fail(*_args: object, **_kw: object) -> None:
        raise GpuplatError("nope", hint="try again")

    monkeypatch.setattr(validate_app, "validate_project", fail)
    plain = run("validate", cwd=tmp_path)
    assert plain.stderr == "Error: nope\nHint: try again\n"
    debug = run("--debug", "validate", cwd=tmp_path)
    assert "Traceback (most recent call last)" in debug.stderr
    assert debug.stderr.endswith("Error: nope\nHint: try again\n")


def test_python_dash_m_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gpuplat", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout == f"gpuplat {__version__}\n"


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_said_before_the_command_line_is_imported(flag: str) -> None:
    """The same text as click's version option, with neither click nor a command loaded."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gpuplat", flag],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == f"gpuplat {__version__}\n" == run(flag).stdout
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "gpuplat.launch" in imported
    assert not {"click", "gpuplat.cli", "gpuplat.errors"} & imported


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Console(err=Tty()).color is True
    assert Console(err=io.StringIO()).color is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert Console(err=Tty()).color is False


def _complete(words: str, cwd: Path) -> list[str]:
    import os
    import subprocess
    import sys

    env = dict(os.environ, _GPUPLAT_COMPLETE="bash_complete", COMP_WORDS=words)
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    done = subprocess.run(
        [sys.executable, "-c", "from gpuplat.cli import main; main()"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split(",", 1)[1] for line in done.stdout.splitlines() if line]


def test_shell_completion_of_environments_and_examples(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    assert _complete("gpuplat plan ", project) == ["dev", "prod"]
    assert _complete("gpuplat apply p", project) == ["prod"]
    assert _complete("gpuplat -C p drift ", tmp_path) == ["dev", "prod"]
    assert _complete("gpuplat validate -e d", project) == ["dev"]
    assert _complete("gpuplat init -x gke-", tmp_path) == [
        "gke-a3-mega",
        "gke-a3-ultra",
        "gke-h100-mig",
        "gke-l4-vllm",
    ]
    assert _complete("gpuplat plan ", tmp_path) == [], "no project here: nothing to offer"
