"""A render killed with SIGKILL at any step leaves the previous tree intact (or the new one).

The renderer is run as a real subprocess. A fault-injection seam (GPUPLAT_TEST_PAUSE_AT) makes
it stop at a named step, where the test kills it with SIGKILL; a second set of runs is killed
at random moments. Afterwards envs/ must be exactly the old tree or exactly the new one, and the
next render must finish the job.
"""

from __future__ import annotations

import importlib.util
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
        assert "max_nodes: 8 " in text
        overlay.write_text(text.replace("max_nodes: 8 ", "max_nodes: 10 "))
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


def _bench_spec(pools: int) -> tuple[str, dict[str, str]]:
    """The benchmark's generated spec (GKE pools over clusters of 50) and its overlays."""
    path = Path(__file__).resolve().parents[2] / "bench" / "render.py"
    loaded = importlib.util.spec_from_file_location("bench_render", path)
    assert loaded is not None and loaded.loader is not None
    bench = importlib.util.module_from_spec(loaded)
    sys.modules.setdefault("bench_render", bench)  # its dataclasses look their module up
    loaded.loader.exec_module(bench)
    return bench.spec(pools), {e: bench.overlay(e) for e in bench.ENVS}


def test_sigkill_at_random_points_of_a_large_render(tmp_path: Path) -> None:
    """A real render of 100 pools x 5 environments (150 files change), killed with SIGKILL at
    random delays over the later half of its own measured duration: after every kill envs/ is exactly the
    old tree or exactly the new one, and the next render finishes the job."""
    text, overlays = _bench_spec(100)
    pristine = tmp_path / "old"
    (pristine / "envs").mkdir(parents=True)
    (pristine / "gpuplat.yaml").write_text(text)
    for env, overlay in overlays.items():
        (pristine / "envs" / f"{env}.yaml").write_text(overlay)
    assert run("render", cwd=pristine).exit_code == 0
    old = rendered_only(snapshot(pristine))
    # Every pool of every environment changes: the render rewrites every infra root.
    edited = text.replace("max_nodes: 4}", "max_nodes: 5}")
    assert edited != text
    (pristine / "gpuplat.yaml").write_text(edited)
    future = tmp_path / "future"
    shutil.copytree(pristine, future, symlinks=True)
    started = time.monotonic()
    finished = start_render(future)
    assert finished.wait() == 0
    duration = time.monotonic() - started
    new = rendered_only(snapshot(future))
    assert old != new
    rng = random.Random(20261202)
    seen = {"old": 0, "new": 0}
    for attempt in range(8):
        project = tmp_path / f"kill-{attempt}"
        shutil.copytree(pristine, project, symlinks=True)
        proc = start_render(project)
        # The first half of a render only reads and renders in memory: aim at the writes.
        time.sleep(rng.uniform(0.5 * duration, 1.05 * duration))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        state = rendered_only(snapshot(project))
        assert state in (old, new), f"kill {attempt}: a mix of the old and the new tree"
        seen["old" if state == old else "new"] += 1
    print(f"render {duration:.2f} s; after 8 kills: {seen}")
    assert run("render", cwd=project).exit_code == 0
    assert rendered_only(snapshot(project)) == new
    assert not list((project / ".gpuplat/tmp").glob("stage-*"))


def test_without_syncfs_each_staged_file_is_fsynced_and_the_tree_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fsynced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (fsynced.append(fd), real(fd))[1])
    trees = []
    for name, no_syncfs in (("a", "0"), ("b", "1")):
        monkeypatch.setenv("GPUPLAT_TEST_NO_SYNCFS", no_syncfs)
        fsynced.clear()
        run("init", tmp_path / name)
        assert run("render", cwd=tmp_path / name).exit_code == 0
        trees.append((snapshot(tmp_path / name), len(fsynced)))
    (with_syncfs, few), (without, many) = trees
    assert with_syncfs == without
    # With syncfs only the folders the renames changed are fsynced; without it every file too.
    assert few < len([k for k in without if k.startswith("envs/")]) <= many
