"""The built wheel works on its own: installed in a fresh venv outside the repository, it renders
the same bytes as the repository's gpuplat and checks Terraform with its bundled schemas.

The wheel is built once per run (``pip wheel --no-deps --no-build-isolation``, hatchling as
pyproject.toml declares) and installed with its dependencies from the package index (or pip's
cache); workers under pytest-xdist share it. About 15 s cold on 2 CPUs.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.realparts import REPO

pytestmark = pytest.mark.wheel

# What the cache and the lock record differs by installation (code hashes, pids); not output.
LOCAL_STATE = (".gpuplat/cache/", ".gpuplat/locks/")
PIP = [sys.executable, "-m", "pip"]


def _run(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, (
        f"{done.args} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    )
    return done


def _outside_env(venv: Path) -> dict[str, str]:
    """An environment that can only find the installed gpuplat: no repo venv, no PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    repo_bin = str(REPO / ".venv" / "bin")
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != repo_bin]
    env["PATH"] = os.pathsep.join([str(venv / "bin"), *path])
    env["VIRTUAL_ENV"] = str(venv)
    return env


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(wheel, venv): the wheel built from this checkout, installed in a fresh venv."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    work = base / "wheel"
    with (base / "wheel.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        venv = work / "venv"
        done = work / ".installed"
        if not done.exists():
            work.mkdir(parents=True, exist_ok=True)
            dist = work / "dist"
            build = ["wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir"]
            _ok(_run([*PIP, *build, str(dist), str(REPO)], cwd=work))
            (wheel,) = dist.glob("gpuplat-*.whl")
            # No pip inside the venv: the test's own pip installs into it (saves ensurepip).
            _ok(_run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=work))
            target = ["--python", str(venv / "bin" / "python")]
            _ok(_run([*PIP, *target, "install", "--quiet", str(wheel)], cwd=work))
            done.write_text(str(wheel), encoding="utf-8")
        return Path(done.read_text(encoding="utf-8")), venv


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not str(p.relative_to(root)).startswith(LOCAL_STATE)
    }


def test_the_wheel_carries_what_gpuplat_reads_at_run_time(installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "gpuplat/releases/modules.lock.json",
        "gpuplat/releases/modules/gke-cluster/1.1.0/main.tf",
        "gpuplat/releases/modules/gke-cluster/1.0.0/main.tf",
        "gpuplat/templates/roots/infra/main.tf.j2",
        "gpuplat/examples/eks-l4-vllm/gpuplat.yaml",
        "gpuplat/catalog/data/gke.yaml",
        "gpuplat/conformance/schemas/google-6.50.0.json",
        "gpuplat/conformance/schemas/aws-5.100.0.json",
    ):
        assert required in names, required
    # Module templates are for cutting versions; renders copy released folders.
    assert not [n for n in names if n.startswith("gpuplat/templates/modules/")]
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Requires-Dist: python-hcl2" in requires
    assert 'python-hcl2<9,>=8.1; extra == "dev"' not in requires


def test_installed_gpuplat_is_the_wheel_not_the_repository(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    _, venv = installed
    probe = (
        "import gpuplat, gpuplat.conformance.files as s, gpuplat.render.templates as t; "
        "print(gpuplat.__file__); print(s.BUNDLED); print(t.templates_root())"
    )
    done = _ok(_run([str(venv / "bin" / "python"), "-c", probe], tmp_path, _outside_env(venv)))
    paths = [Path(line) for line in done.stdout.splitlines()]
    assert len(paths) == 3
    for path in paths:
        assert path.is_relative_to(venv), path
        assert not path.is_relative_to(REPO), path


@pytest.mark.parametrize("example", ["gke-l4-vllm", "eks-l4-vllm"])
def test_installed_wheel_renders_the_same_bytes(
    installed: tuple[Path, Path], tmp_path: Path, example: str
) -> None:
    _, venv = installed
    outside, inside = tmp_path / "wheel" / "project", tmp_path / "repo" / "project"
    for folder in (outside, inside):
        folder.mkdir(parents=True)
    env = _outside_env(venv)
    init = ["init"] if example == "gke-l4-vllm" else ["init", "--example", example]
    _ok(_run(["gpuplat", *init], outside, env))  # the default example needs no flag
    _ok(_run(["gpuplat", "render"], outside, env))
    repo_gpuplat = [sys.executable, "-m", "gpuplat"]
    _ok(_run([*repo_gpuplat, *init], inside))
    _ok(_run([*repo_gpuplat, "render"], inside))
    rendered, expected = _tree(outside), _tree(inside)
    assert any(name.startswith("modules/") for name in rendered)
    assert any(name.startswith("envs/") and name.endswith("/main.tf") for name in rendered)
    assert sorted(rendered) == sorted(expected)
    changed = [name for name in rendered if rendered[name] != expected[name]]
    assert changed == []


def test_installed_wheel_checks_conformance(installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, venv = installed
    env = _outside_env(venv)
    project = tmp_path / "project"
    project.mkdir()
    _ok(_run(["gpuplat", "init", "--example", "eks-l4-vllm"], project, env))
    _ok(_run(["gpuplat", "render"], project, env))
    clean = _ok(_run(["gpuplat", "conformance"], project, env))
    assert clean.stdout == ""
    assert ", 0 violations" in clean.stderr and "(bundled schemas)" in clean.stderr
    # A vendored edit that breaks the schema is found, with the file and line.
    node_group = next((project / "modules" / "eks-gpu-node-group").glob("*/main.tf"))
    text = node_group.read_text(encoding="utf-8")
    node_group.write_text(
        text.replace("  scaling_config {", "  scaling_confg {", 1), encoding="utf-8"
    )
    line = text[: text.index("  scaling_config {")].count("\n") + 1
    broken = _run(["gpuplat", "conformance", "modules"], project, env)
    assert broken.returncode == 11, broken.stderr
    assert f"{node_group.relative_to(project)}:{line}: aws_eks_node_group.this: " in broken.stdout
    assert "did you mean `scaling_config`?" in broken.stdout
    helped = _ok(
        _run([str(venv / "bin" / "python"), "-m", "gpuplat.conformance", "--help"], project, env)
    )
    assert helped.stdout.startswith("usage: python -m gpuplat.conformance")
