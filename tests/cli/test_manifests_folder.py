"""`render --manifests DIR`: the folder keeps the user's files and environments not rendered."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.cli import run

NETPOL = "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: mine}\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "p"
    assert run("init", "--example", "eks-l4-vllm", str(folder)).exit_code == 0
    return folder


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_files_the_user_added_are_kept(project: Path) -> None:
    """A README and a NetworkPolicy added inside the folder gpuplat wrote survive a re-render."""
    assert run("render", "--manifests", "k8s", cwd=project).exit_code == 0
    k8s = project / "k8s"
    (k8s / "README.md").write_text("ours\n", encoding="utf-8")
    (k8s / "dev" / "netpol.yaml").write_text(NETPOL, encoding="utf-8")
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    again = run("render", "--manifests", "k8s", cwd=project)
    assert again.exit_code == 0, again.stderr
    assert (k8s / "README.md").read_text(encoding="utf-8") == "ours\n"
    assert (k8s / "dev" / "netpol.yaml").read_text(encoding="utf-8") == NETPOL


@pytest.mark.parametrize("layout", ["plain", "flux", "argocd"])
def test_rendering_one_environment_keeps_the_others(project: Path, layout: str) -> None:
    """`-e prod` rewrites prod's manifests only: a commit of the folder does not prune dev.

    With Flux or Argo CD the objects that apply the folders still list dev's cluster.
    """
    gitops = [] if layout == "plain" else ["--layout", layout, "--repo-url", "https://x/y.git"]
    assert run("render", "--manifests", "k8s", *gitops, cwd=project).exit_code == 0
    before = files(project / "k8s")
    assert any(p.startswith("dev/") for p in before)
    only_prod = run("render", "-e", "prod", "--manifests", "k8s", *gitops, cwd=project)
    assert only_prod.exit_code == 0, only_prod.stderr
    assert files(project / "k8s") == before
    if layout != "plain":
        texts = "".join(
            (project / "k8s" / p).read_text(encoding="utf-8")
            for p in before
            if p.startswith(layout + "/")
        )
        assert "dev" in texts and "prod" in texts


def test_a_user_file_where_gpuplat_writes_is_refused_by_name(project: Path) -> None:
    assert run("render", "--manifests", "k8s", cwd=project).exit_code == 0
    marker = project / "k8s" / ".gpuplat-manifests"
    lines = marker.read_text(encoding="utf-8").splitlines()
    taken = next(line for line in lines[1:] if line.startswith("dev/"))
    marker.write_text("\n".join(line for line in lines if line != taken) + "\n", encoding="utf-8")
    (project / "k8s" / taken).write_text(NETPOL, encoding="utf-8")
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    refused = run("render", "--manifests", "k8s", cwd=project)
    assert refused.exit_code == 1
    assert f"k8s/{taken} was not written by gpuplat" in refused.stderr
    assert (project / "k8s" / taken).read_text(encoding="utf-8") == NETPOL


def test_manifests_dir_is_relative_to_the_project(project: Path, tmp_path: Path) -> None:
    """`gpuplat -C PROJECT render --manifests k8s` writes PROJECT/k8s, as envs/ is written there."""
    elsewhere = tmp_path / "shell"
    elsewhere.mkdir()
    old = Path.cwd()
    os.chdir(elsewhere)
    try:
        done = run("-C", str(project), "render", "--manifests", "k8s")
    finally:
        os.chdir(old)
    assert done.exit_code == 0, done.stderr
    assert (project / "k8s" / "dev").is_dir()
    assert not (elsewhere / "k8s").exists()
