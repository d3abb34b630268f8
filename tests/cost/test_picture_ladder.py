"""The picture tells a ladder's rungs and the capacity types apart: one box per rung, in order,
each named and drawn by its capacity (reserved bold, on-demand solid, spot dashed, flex-start
and queued dotted), joined by "then" edges; the real Graphviz lays it out."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tests.support.cli import run
from tests.support.realparts import graphviz_dot
from tests.support.specs import GKE_LADDER_PATCH, project

SVG = "{http://www.w3.org/2000/svg}"


def test_dot_draws_one_box_per_rung_styled_by_its_capacity(tmp_path: Path) -> None:
    root = project(tmp_path, GKE_LADDER_PATCH)
    dot = run("graph", "dev", "--format", "dot", cwd=root).stdout
    lines = dot.splitlines()
    rungs = [line.strip() for line in lines if "rung " in line and "label=" in line]
    assert len(rungs) == 4, dot
    # In the ladder's order, each with its capacity, shape and per-node price.
    assert rungs[0].startswith('e0c0p0 [label="rung 1: reservation l4-reserved\\n')
    assert "0.85363 $/h a node" in rungs[0]
    assert rungs[1].startswith('e0c0p0r1 [label="rung 2: on-demand\\n')
    assert rungs[2].startswith('e0c0p0r2 [label="rung 3: flex-start\\n')
    assert "price unknown" in rungs[2]
    assert rungs[3].startswith('e0c0p0r3 [label="rung 4: spot\\n')
    styles = [line.split('style="')[1].split('"')[0] for line in rungs]
    assert styles == ["bold,filled", "solid,filled", "dotted,filled", "dashed,filled"]
    assert len({line.split('fillcolor="')[1].split('"')[0] for line in rungs}) == 4
    # The climb, and the ladder as one framed group named after the pool.
    assert '  e0c0p0 -> e0c0p0r1 [style=dotted, label="then"];' in lines
    assert '  e0c0p0r2 -> e0c0p0r3 [style=dotted, label="then"];' in lines
    assert any(line.strip().startswith("subgraph cluster_e0c0p0 {") for line in lines)
    # The workload still points at the ladder (its first rung).
    assert "  e0w0 -> e0c0p0;" in lines
    # The key says what the dotted "then" arrow and each capacity type's style mean.
    assert '  key_then_a -> key_then_b [style=dotted, label="then"];' in lines
    assert any(line.strip().startswith("key_reservation [") for line in lines)


def test_a_pool_of_one_capacity_type_is_drawn_by_it(tmp_path: Path) -> None:
    dot = run("graph", "dev", "--format", "dot", cwd=project(tmp_path)).stdout
    pool = next(line for line in dot.splitlines() if line.strip().startswith("e0c0p0 ["))
    assert 'style="dashed,filled"' in pool  # the example's dev pool is spot


def test_mermaid_groups_the_rungs_and_classes_them_by_capacity(tmp_path: Path) -> None:
    root = project(tmp_path, GKE_LADDER_PATCH)
    text = run("graph", "dev", cwd=root).stdout
    assert 'subgraph e0c0p0L["ladder l4-shared' in text
    assert "  e0c0p0 -. then .-> e0c0p0r1" in text
    assert "  class e0c0p0 reservation" in text
    assert "  class e0c0p0r3 spot" in text
    assert "  classDef spot stroke-dasharray: 5 5" in text


def test_svg_of_a_ladder_names_every_rung(tmp_path: Path) -> None:
    graphviz_dot()
    root = project(tmp_path, GKE_LADDER_PATCH)
    done = run("graph", "dev", "--format", "svg", cwd=root)
    assert done.exit_code == 0, done.stderr
    texts = [t.text or "" for t in ET.fromstring(done.stdout).iter(f"{SVG}text")]
    for label in ("rung 1: reservation l4-reserved", "rung 2: on-demand", "rung 4: spot"):
        assert label in texts, texts
    assert "ladder l4-shared, 0..2 nodes in all" in texts
