"""The picture a platform lead shows: environments in the spec's order, each pool's floor and
ceiling, paid-idle stranded units apart from free headroom, arrows by role and a key; a PNG
written by the real Graphviz `dot`."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tests.app.test_failover import failover_project
from tests.support.cli import run
from tests.support.realparts import graphviz_dot
from tests.support.specs import project

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> dict[str, float]:
    """Each text of an SVG -> its y (down the page)."""
    return {t.text or "": float(t.get("y", "0")) for t in ET.fromstring(svg).iter(f"{SVG}text")}


def test_environments_stack_in_the_order_the_spec_declares(tmp_path: Path) -> None:
    graphviz_dot()
    root = project(tmp_path, example="gke-h100-mig")
    done = run("graph", "--format", "svg", cwd=root)
    assert done.exit_code == 0, done.stderr
    y = _texts(done.stdout)
    # gpuplat.yaml declares dev, then prod: dev is drawn above, the key below both.
    assert y["environment dev"] < y["environment prod"] < y["key"]


def test_a_pool_shows_its_floor_and_ceiling_and_what_it_strands(tmp_path: Path) -> None:
    """The default example's dev pool (spot g2-standard-8, 0..2 nodes, 2 time-slices a node)
    with a workload of one replica always running and no more: the node it holds has one
    slice idle and paid for; the second node is free headroom. g2-standard-8 spot at most 0.34145 $/h: a node is
    $249.26 a month, its idle slice half that, $124.63; the second node's two slices $249.26."""
    root = project(tmp_path)
    overlay = root / "envs" / "dev.yaml"
    text = overlay.read_text(encoding="utf-8")
    assert text.endswith("    replicas:\n      max: 4\n")
    text = text.replace("    replicas:\n      max: 4\n", "    scale_to_zero: false\n")
    overlay.write_text(text + "    replicas:\n      min: 1\n      max: 1\n", encoding="utf-8")
    dot = run("graph", "dev", "--format", "dot", cwd=root)
    assert dot.exit_code == 0, dot.stderr
    pool = next(line for line in dot.stdout.splitlines() if line.strip().startswith("e0c0p0 ["))
    assert "$0.00 floor .. $498.52 ceiling a month" in pool
    assert "STRANDED, paid idle: 1 slices, $124.63/month" in pool
    assert "free headroom: 2 slices ($249.26/month once used)" in pool
    assert 'color="#c0392b", penwidth=3' in pool  # drawn in alarm
    assert "key_idle [" in dot.stdout  # and the key says what the red outline means
    cost = run("cost", "dev", "--stranded", cwd=root).stdout
    assert "$124.63" in cost and "$249.26" in cost  # the figures `cost --stranded` prints


def test_arrows_by_role_and_a_key_for_them(tmp_path: Path) -> None:
    warm = failover_project(
        tmp_path / "warm", placements={"inference-us": {"role": "warm", "warm_replicas": 1}}
    )
    lines = run("graph", "dev", "--format", "dot", cwd=warm).stdout.splitlines()
    edges = [line.strip() for line in lines if line.strip().startswith("e0w0 ->")]
    assert any(e.endswith(";") and "[" not in e for e in edges), edges  # active: solid
    assert any('[style=dashed, label="warm standby"]' in e for e in edges), edges
    assert '  key_warm_a -> key_warm_b [style=dashed, label="warm standby"];' in lines
    assert any("key_active_b" in line and "serves there" in line for line in lines)
    cold = failover_project(tmp_path / "cold")
    text = run("graph", "dev", cwd=cold).stdout
    assert "e0w0 -.->|failover| " in text and "e0w0 --> " in text


def test_png_through_graphviz(tmp_path: Path) -> None:
    graphviz_dot()
    root = project(tmp_path, example="gke-h100-mig")
    out = tmp_path / "platform.png"
    done = run("graph", "--format", "png", "-o", str(out), cwd=root)
    assert done.exit_code == 0, done.stderr
    assert done.stderr.strip() == f"wrote {out}"
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    refused = run("graph", "--format", "png", cwd=root)
    assert refused.exit_code == 2
    assert "--format png writes a file: give it with -o FILE" in refused.stderr
