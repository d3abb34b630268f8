"""Overlay merge: by key, lists of named items by name, and every value keeps its origin."""

from __future__ import annotations

from gpuplat.spec.diagnostics import Mark
from gpuplat.spec.merge import merge
from gpuplat.spec.source import Node, load_bytes

BASE = b"""\
project: demo
clusters:
  - name: a
    zones: [z1, z2]
    node_pools:
      - name: p1
        machine_type: m1
      - name: p2
        machine_type: m2
  - name: b
labels: {x: "1"}
"""
OVERLAY = b"""\
clusters:
  - name: a
    zones: [z3]
    node_pools:
      - name: p2
        machine_type: m2-big
      - name: p3
        machine_type: m3
labels: {y: "2"}
"""


def load(data: bytes, name: str) -> Node:
    result = load_bytes(data, name)
    assert result.root is not None, result.diagnostics
    return result.root


def test_merge_semantics() -> None:
    merged = merge(load(BASE, "gpuplat.yaml"), load(OVERLAY, "envs/prod.yaml"))
    assert merged.to_data() == {
        "project": "demo",
        "clusters": [
            {
                "name": "a",
                "zones": ["z3"],
                "node_pools": [
                    {"name": "p1", "machine_type": "m1"},
                    {"name": "p2", "machine_type": "m2-big"},
                    {"name": "p3", "machine_type": "m3"},
                ],
            },
            {"name": "b"},
        ],
        "labels": {"x": "1", "y": "2"},
    }


def test_values_keep_the_file_they_came_from() -> None:
    merged = merge(load(BASE, "gpuplat.yaml"), load(OVERLAY, "envs/prod.yaml"))
    marks = {path: node.mark for path, node in merged.walk()}
    assert marks[("clusters", 0, "node_pools", 0, "machine_type")] == Mark("gpuplat.yaml", 7, 23)
    assert marks[("clusters", 0, "node_pools", 1, "machine_type")] == Mark("envs/prod.yaml", 6, 23)
    assert marks[("clusters", 0, "node_pools", 2, "name")] == Mark("envs/prod.yaml", 7, 15)
    assert marks[("clusters", 0, "zones")] == Mark("envs/prod.yaml", 3, 12)
    assert marks[("labels", "x")] == Mark("gpuplat.yaml", 11, 13)


def test_inputs_are_not_modified() -> None:
    base = load(BASE, "gpuplat.yaml")
    before = base.to_data()
    merge(base, load(OVERLAY, "envs/prod.yaml"))
    assert base.to_data() == before


def test_lists_without_names_are_replaced() -> None:
    base = load(b"taints: [{key: a}, {key: b}]\n", "gpuplat.yaml")
    over = load(b"taints: [{key: c}]\n", "envs/dev.yaml")
    assert merge(base, over).to_data() == {"taints": [{"key": "c"}]}


def test_scalar_replaces_mapping() -> None:
    base = load(b"a: {b: 1}\n", "gpuplat.yaml")
    over = load(b"a: 3\n", "envs/dev.yaml")
    assert merge(base, over).to_data() == {"a": 3}
