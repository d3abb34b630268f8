"""A render killed with SIGKILL at any step leaves the previous tree intact (or the new one).

The renderer is run as a real subprocess. A fault-injection seam (GPUPLAT_TEST_PAUSE_AT) makes
it stop at a named step, where the test kills it with SIGKILL; a second set of runs is killed
at random moments. Afterwards envs/ must be exactly the old tree or exactly the new one, and the
next render must finish the job.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.golden import tree


def snapshot(root: Path) -> dict[str, str]:
    return tree(root, ("envs", "modules"))


@pytest.fixture
def scenario(tmp_path: Path) -> tuple[Path, dict[str, str], dict[str, str]]:
    """A rendered project, its old tree, and the new tree a render of an edit would produce."""
    project = tmp_path / "p"
    run("init", project)
    assert run("render", cwd=project).exit_code == 0
    old = snapshot(project)
    future = tmp_path / "future"
    shutil.copytree(project, future)
    for folder in (project, future):
        overlay = folder / "envs" / "prod.yaml"
        text = overlay.read_text()
        assert "max_nodes: 2\n" in text
        overlay.write_text(text.replace("max_nodes: 2\n", "max_nodes: 3\n"))
    assert run("render", cwd=future).exit_code == 0
    new = snapshot(future)
    assert old != new
    # The edited overlay is part of both trees' envs/: compare rendered files only.
    return project, old, new


def rendered_only(files: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in files.items() if not k.endswith(".yaml")}


def start_render(project: Path, **env: str) -> subprocess.Popen[bytes]:
    full = dict(os.environ, **env)
    return subprocess.Popen(
        [sys.executable, "-m", "gpuplat", "-C", str(project), "render"],
        env=full,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def kill_at(project: Path, step: str, **extra: str) -> None:
    marker = project.parent / f"reached-{step}"
    proc = start_render(
        project, GPUPLAT_TEST_PAUSE_AT=step, GPUPLAT_TEST_PAUSE_AT_MARKER=str(marker), **extra
    )
    deadline = time.monotonic() + 30
    while not marker.exists():
        assert proc.poll() is None, f"render exited before reaching {step}"
        assert time.monotonic() < deadline, f"render never reached {step}"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize(
    ("step", "expect"),
    [
        ("modules-staged", "old"),
        ("modules-placed", "old"),
        ("envs-staged", "old"),
        ("envs-swapped", "new"),
    ],
)
def test_sigkill_at_each_step(
    scenario: tuple[Path, dict[str, str], dict[str, str]], step: str, expect: str
) -> None:
    project, old, new = scenario
    kill_at(project, step)
    wanted = old if expect == "old" else new
    assert rendered_only(snapshot(project)) == rendered_only(wanted)
    # The next render completes the job and leaves no staging behind.
    assert run("render", cwd=project).exit_code == 0
    assert rendered_only(snapshot(project)) == rendered_only(new)
    assert not list((project / ".gpuplat/tmp").glob("stage-*"))
    assert run("render", "--check", cwd=project).exit_code == 0


def test_sigkill_in_the_fallback_swap_is_rolled_back(
    scenario: tuple[Path, dict[str, str], dict[str, str]],
) -> None:
    project, old, new = scenario
    kill_at(project, "fallback-half", GPUPLAT_TEST_NO_EXCHANGE="1")
    assert not (project / "envs").exists(), "the seam should stop between the two renames"
    # Any gpuplat render first rolls the half swap back to the old tree, then renders.
    result = run("render", "--dry-run", cwd=project)
    assert result.exit_code == 0
    assert rendered_only(snapshot(project)) == rendered_only(old)
    assert run("render", cwd=project).exit_code == 0
    assert rendered_only(snapshot(project)) == rendered_only(new)


def test_sigkill_at_random_moments(scenario: tuple[Path, dict[str, str], dict[str, str]]) -> None:
    project, old, new = scenario
    rng = random.Random(20261130)
    for _ in range(12):
        proc = start_render(project)
        time.sleep(rng.uniform(0.0, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        state = rendered_only(snapshot(project))
        assert state in (rendered_only(old), rendered_only(new))
        if state == rendered_only(new):
            # Start over from the old tree so later kills still land in the interesting part.
            for path, text in old.items():
                (project / path).write_text(text)
            manifest = project / "envs/manifest.json"
            manifest.write_text(old["envs/manifest.json"])
