"""`gpuplat graph`: SVG through the real Graphviz naming every cluster, pool and workload."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpuplat.picture.dot import dot
from gpuplat.picture.mermaid import mermaid
from gpuplat.picture.model import Box, ClusterBox, Edge, EnvBox
from gpuplat.spec.load import load_project
from tests.support.cli import run
from tests.support.realparts import graphviz_dot
from tests.support.specs import project, scaled_prod

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("example", ["gke-l4-vllm", "gke-h100-mig", "eks-l4-vllm"])
def test_svg_of_every_example_names_everything(tmp_path: Path, example: str) -> None:
    graphviz_dot()
    root = project(tmp_path, example=example)
    done = run("graph", "--format", "svg", cwd=root)
    assert done.exit_code == 0, done.stderr
    svg = ET.fromstring(done.stdout)
    assert svg.tag == f"{SVG}svg"
    texts = [t.text or "" for t in svg.iter(f"{SVG}text")]
    loaded = load_project(root)
    for name, env in loaded.envs.items():
        assert f"environment {name}" in texts
        for cluster in env.spec.clusters:
            assert f"cluster {cluster.name}" in texts
            for pool in cluster.node_pools:
                assert f"pool {pool.name}" in texts
        for workload in env.spec.workloads:
            assert f"workload {workload.name}" in texts
    # One arrow per workload and pool it runs on, per environment.
    # (The key's sample arrows and the invisible ordering edges are not a workload's.)
    edges = [
        g
        for g in svg.iter(f"{SVG}g")
        if g.get("class") == "edge"
        and re.match(r"e\d+w\d+->", g.findtext(f"{SVG}title") or "")
        and g.find(f"{SVG}path") is not None
    ]
    assert len(edges) == sum(
        len(pools)
        for env in loaded.envs.values()
        for w in env.spec.workloads
        for pools in [
            [p for c in env.spec.clusters for p in c.node_pools if _runs(env.spec, w, c, p)]
        ]
    )


def _runs(spec, workload, cluster, pool) -> bool:  # type: ignore[no-untyped-def]
    from gpuplat.spec.resolve import workload_pools

    return pool in workload_pools(spec, workload).get(cluster.name, [])


def test_mermaid_of_the_default_example(tmp_path: Path) -> None:
    root = scaled_prod(project(tmp_path))
    done = run("graph", "prod", cwd=root)
    assert done.exit_code == 0
    assert done.stdout.splitlines() == [
        "flowchart LR",
        '  subgraph e0["environment prod"]',
        '    subgraph e0c0["cluster inference-us<br/>gke us-central1<br/>$1,582.71 floor .. '
        '$5,556.59 ceiling a month<br/>(with system pool, fee, disks, network)"]',
        '      e0c0p0["pool l4-shared<br/>g2-standard-8: 1 x nvidia-l4, 2 slices<br/>on-demand, '
        '2..8 nodes<br/>$1,246.30 floor .. $4,985.20 ceiling a month"]',
        "    end",
        '    e0w0["workload chat<br/>2..16 replicas<br/>1 x 1/2 L4 time-slice each"]',
        "  end",
        "  e0w0 --> e0c0p0",
        "  classDef ondemand fill:#ffffff",
        "  class e0c0p0 ondemand",
    ]


def test_labels_cannot_break_out_of_the_drawing() -> None:
    nasty = 'a"] --> x[b\\"\n<script>'
    env = EnvBox(
        "e0",
        nasty,
        (ClusterBox("e0c0", (nasty,), (Box("e0c0p0", (nasty,)),)),),
        (Box("e0w0", (nasty,)),),
        (Edge("e0w0", "e0c0p0", "cold"),),
    )
    drawn = mermaid([env])
    assert '"' not in nasty.replace('"', "") and drawn.count('"') % 2 == 0
    assert "#quot;" in drawn and "<script>" not in drawn
    assert "e0w0 -.->|failover| e0c0p0" in drawn
    source = dot([env])
    assert '\\"' in source and "\n<script>" not in source
    graphviz_dot()
    import subprocess

    laid = subprocess.run(["dot", "-Tsvg"], input=source.encode(), capture_output=True, check=True)
    texts = [t.text for t in ET.fromstring(laid.stdout).iter(f"{SVG}text")]
    assert 'a"] --> x[b\\"' in texts and "<script>" in texts, "labels survive as text"


def test_svg_without_graphviz_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    done = run("graph", "--format", "svg", cwd=root)
    assert done.exit_code == 9
    assert done.stderr.splitlines() == [
        "Error: --format svg needs Graphviz' dot, which is not on PATH",
        "Hint: install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install "
        "graphviz), or use --format mermaid or --format dot",
    ]
    assert os.environ["PATH"] == str(tmp_path / "empty")
