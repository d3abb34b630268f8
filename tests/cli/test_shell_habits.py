"""The CLI run as a person runs it: a real process, in a project folder, behind pipes and Ctrl-C."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PYTHON_STARTING = ("Could not import runpy module", "Fatal Python error: init_import_site")
"""How Python itself reports a SIGINT while it starts, before it runs a line of gpuplat."""

ENV = {**{k: v for k, v in os.environ.items() if k != "CI"}, "NO_COLOR": "1"}


def gpuplat(
    *args: str, cwd: Path, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuplat", *args],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("habits") / "p"
    made = subprocess.run(
        [sys.executable, "-m", "gpuplat", "init", "--example", "eks-l4-vllm", str(folder)],
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    return folder


@pytest.mark.parametrize("command", [["graph"], ["cost"], ["schema"], ["cost", "--help"]])
def test_a_closed_pipe_ends_quietly(project: Path, command: list[str]) -> None:
    """`gpuplat graph | head -1`: the reader is gone before gpuplat writes.

    The reading end is closed before the process starts, so every write fails the same way
    `head -1` makes the second write fail: no crash log, no message, the status a shell reports
    for a Unix tool that SIGPIPE ended (141).
    """
    read, write = os.pipe()
    os.close(read)
    try:
        done = gpuplat(*command, cwd=project, stdout=write)
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 141


def test_a_new_overlay_file_is_not_answered_from_the_cache(project: Path) -> None:
    """A new envs/staging.yaml for an undeclared environment: validate and render agree (4).

    The render before it fills the cache; the fast path must not answer "up to date".
    """
    assert gpuplat("render", cwd=project).returncode == 0
    stray = project / "envs" / "staging.yaml"
    stray.write_text("clusters: []\n", encoding="utf-8")
    try:
        assert gpuplat("validate", cwd=project).returncode == 4
        again = gpuplat("render", cwd=project)
        assert again.returncode == 4, again.stderr
        assert "envs/staging.yaml:1:1" in again.stderr
    finally:
        stray.unlink()


@pytest.mark.parametrize("command", [["validate"], ["render"]])
def test_a_300_character_environment_name_gets_the_name_rule(
    tmp_path: Path, project: Path, command: list[str]
) -> None:
    """The file system cannot hold envs/<300 chars>.yaml; the name rule speaks first, located."""
    folder = tmp_path / "long"
    shutil.copytree(project, folder, ignore=shutil.ignore_patterns(".gpuplat"))
    spec = folder / "gpuplat.yaml"
    name = "a" * 300
    spec.write_text(
        spec.read_text(encoding="utf-8").replace("  - name: dev\n", f"  - name: {name}\n"),
        encoding="utf-8",
    )
    done = gpuplat(*command, cwd=folder)
    assert done.returncode == 4, done.stderr
    assert done.stderr.startswith(f'Error: environment name "{name}"')
    line = spec.read_text(encoding="utf-8").splitlines().index(f"  - name: {name}") + 1
    assert f"gpuplat.yaml:{line}:11  environments[0].name" in done.stderr
    assert "File name too long" not in done.stderr


IMPORT_LOCK = "Exception ignored in: <function _get_module_lock.<locals>.cb"


def python_starting(err: str) -> bool:
    """Whether a SIGINT ended the run before the interpreter ran a line of gpuplat.

    Python's fatal start errors, or a KeyboardInterrupt whose every frame is in the interpreter's
    own frozen bootstrap (runpy still looking for the `gpuplat` package on disk): no gpuplat
    frame, so nothing gpuplat could guard.
    """
    if err.startswith(PYTHON_STARTING):
        return True
    frames = [line for line in err.splitlines() if line.lstrip().startswith('File "')]
    return (
        err.startswith("Traceback")
        and err.rstrip().endswith("KeyboardInterrupt")
        and bool(frames)
        and all(line.lstrip().startswith('File "<frozen ') for line in frames)
    )


def test_ctrl_c_in_the_first_fraction_of_a_second_says_interrupted_once(project: Path) -> None:
    """SIGINT (what a terminal's Ctrl-C sends) at many moments of the start and the first run.

    From the moment the interpreter runs gpuplat's first line: no traceback, and "Interrupted."
    exactly once with status 130. Before that line Python's own start is not gpuplat's to
    guard; a SIGINT there ends the process by the signal (status -2, nothing printed) or, in
    the interpreter's start itself, with Python's fatal error or a traceback wholly inside its
    frozen bootstrap (`python_starting`), so the sweep
    starts after twice the time a bare interpreter takes to start and finish, and such an end
    on a busy machine is not counted against gpuplat.
    """
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    bare = time.monotonic() - started
    seen: list[tuple[float, int, str]] = []
    for step in range(25):
        delay = 2 * bare + step * 0.015
        proc = subprocess.Popen(
            [sys.executable, "-m", "gpuplat", "validate"],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        seen.append((delay, proc.returncode, err))
    for delay, code, err in seen:
        if python_starting(err):
            continue  # the interpreter's own start, slowed by a busy machine
        # Never a KeyboardInterrupt swallowed by the import machinery's lock callback: gpuplat
        # takes no signal inside an import (gpuplat.interrupt.guard).
        assert not err.startswith(IMPORT_LOCK), (delay, err)
        assert "Traceback" not in err, (delay, err)
        assert "Aborted!" not in err, (delay, err)
        assert err.count("Interrupted.") <= 1, (delay, err)
        if code == 130:
            assert err.count("Interrupted.") == 1, (delay, err)
        else:  # finished before the signal came, or ended by the signal before Python's handler
            assert code in (0, -signal.SIGINT), (delay, code, err)
    assert any(code == 130 for _, code, _ in seen), "no run was interrupted: sweep too late"


def test_the_project_is_found_from_envs_and_c_works_after_the_command(project: Path) -> None:
    """`cd envs && gpuplat validate`, and `gpuplat validate -C ../p` from beside it."""
    inside = gpuplat("validate", cwd=project / "envs")
    assert inside.returncode == 0, inside.stderr
    assert "\nvalid: dev, prod\n" in inside.stderr  # after dev's spot note, before the queue
    after = gpuplat("validate", "-e", "dev", "-C", project.name, cwd=project.parent)
    assert after.returncode == 0, after.stderr
    assert "\nvalid: dev\n" in after.stderr


def _checked(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    return done.stderr.strip().splitlines()[-1].split(" in ")[0]


def test_conformance_paths_start_where_c_points_or_where_the_person_is(project: Path) -> None:
    """`gpuplat -C p conformance envs` from beside the project checks p/envs (as if the person
    had cd'ed into p); `cd p/envs && gpuplat conformance dev` checks p/envs/dev, though the
    project itself was found one folder up."""
    assert gpuplat("render", cwd=project).returncode == 0
    whole = _checked(gpuplat("conformance", "envs", cwd=project))
    assert whole.startswith("30 files"), whole
    assert _checked(gpuplat("-C", project.name, "conformance", "envs", cwd=project.parent)) == whole
    dev = _checked(gpuplat("conformance", "dev", cwd=project / "envs"))
    assert dev.startswith("15 files"), dev


def test_only_a_traceback_wholly_inside_pythons_start_is_excused() -> None:
    inside = (
        "Traceback (most recent call last):\n"
        '  File "<frozen runpy>", line 189, in _run_module_as_main\n'
        '  File "<frozen importlib._bootstrap_external>", line 147, in _path_stat\n'
        "KeyboardInterrupt\n"
    )
    ours = inside.replace(
        "KeyboardInterrupt",
        '  File "/src/gpuplat/launch.py", line 3, in <module>\nKeyboardInterrupt',
    )
    assert python_starting(inside)
    assert python_starting("Fatal Python error: init_import_site: Failed to import the site module")
    assert not python_starting(ours)
    assert not python_starting("Traceback (most recent call last):\nKeyboardInterrupt\n")


def test_every_path_argument_starts_where_the_person_is_or_in_c(project: Path) -> None:
    """One rule for all of them: `gpuplat -C p X` reads as `cd p && gpuplat X`; without -C a
    relative path starts in the working folder, even when the project was found one folder up.
    """
    parent, envs = project.parent, project / "envs"
    made: list[Path] = []

    def wrote(cwd: Path, *args: str) -> None:
        done = gpuplat(*args, cwd=cwd)
        assert done.returncode == 0, done.stderr

    try:
        # From envs/ (the project found one folder up): DIR is envs/k8s, not the project's k8s.
        wrote(envs, "render", "-e", "dev", "--manifests", "k8s")
        made.append(envs / "k8s")
        assert (envs / "k8s" / "dev").is_dir()
        assert not (project / "k8s").exists()
        # With -C p from beside the project: in p, as if the person had cd'ed there.
        wrote(parent, "-C", project.name, "render", "-e", "dev", "--manifests", "k8s")
        made.append(project / "k8s")
        assert (project / "k8s" / "dev").is_dir()
        assert not (parent / "k8s").exists()
        wrote(parent, "-C", project.name, "graph", "dev", "-o", "g.mmd")
        made.append(project / "g.mmd")
        assert (project / "g.mmd").is_file() and not (parent / "g.mmd").exists()
        wrote(parent, "-C", project.name, "cost", "dev", "--infracost-usage", "u.yml")
        made.append(project / "u.yml")
        assert (project / "u.yml").is_file() and not (parent / "u.yml").exists()
        wrote(envs, "graph", "dev", "-o", "g.mmd")
        made.append(envs / "g.mmd")
        assert (envs / "g.mmd").is_file()
    finally:
        for path in made:
            shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
