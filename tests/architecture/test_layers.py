"""The shape of the code, as promised: layers, rooms, and where cloud differences live.

Read from the source with ``ast``; nothing is imported. Known exceptions are listed by name,
and a listed exception that no longer exists fails the test, so the lists can only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.imports import SRC, cycles, graph, imports_of, modules

CLOUDS = {"gke", "eks", "aks"}
MAX_LINES = 400
MAX_CLOUD_BRANCHES = 10
KNOWN_LONG: set[str] = set()
"""Modules over the limit, being split."""
"""Comparisons against a cloud name allowed outside the targets' own files."""

KNOWN_CYCLES: list[list[str]] = []
KNOWN_PRIVATE_IMPORTS: set[tuple[str, str]] = set()


def test_no_import_cycles() -> None:
    found = cycles(graph())
    assert [c for c in found if c not in KNOWN_CYCLES] == []
    assert [c for c in KNOWN_CYCLES if c not in found] == [], "a known cycle is gone: unlist it"


def test_no_module_over_400_lines() -> None:
    long = {
        name: n
        for name, path in modules().items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert set(long) - KNOWN_LONG == set()
    assert KNOWN_LONG - set(long) == set(), "a known long module is short now: unlist it"


def test_no_import_of_another_modules_private_names() -> None:
    known = set(modules())
    found = {
        (name, alias)
        for name, path in modules().items()
        for imp in imports_of(name, path, known)
        for alias in imp.names
        if alias.startswith("_") and not alias.startswith("__") and imp.target != name
    }
    assert found - KNOWN_PRIVATE_IMPORTS == set()
    assert KNOWN_PRIVATE_IMPORTS - found == set(), "a known private import is gone: unlist it"


def _names_a_cloud(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and node.value in CLOUDS:
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_cloud(e) for e in node.elts)
    return False


def cloud_branches() -> list[str]:
    """Comparisons against a cloud's name outside ``gpuplat/targets/``."""
    out = []
    for path in sorted((SRC / "gpuplat").rglob("*.py")):
        if "targets" in path.relative_to(SRC).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                _names_a_cloud(side) for side in (node.left, *node.comparators)
            ):
                out.append(f"{Path(path).relative_to(SRC)}:{node.lineno}: {ast.unparse(node)}")
    return out


def test_cloud_differences_live_with_the_cloud() -> None:
    found = cloud_branches()
    assert len(found) <= MAX_CLOUD_BRANCHES, "\n".join(found)


def test_targets_do_not_import_what_asks_them() -> None:
    """Targets sit below the code that asks them: checks, add-ons, roots, plans never above."""
    above = ("gpuplat.spec.checks", "gpuplat.addons", "gpuplat.render.roots", "gpuplat.app")
    edges = graph()
    bad = sorted(
        (src, dst)
        for src, dsts in edges.items()
        if src.startswith("gpuplat.targets")
        for dst in dsts
        if dst.startswith(above)
    )
    assert bad == []


def test_cost_report_and_stranded_do_not_import_each_other() -> None:
    """Not even for type annotations: the report formats findings, findings never the report."""
    together = [
        c
        for c in cycles(graph(annotations=True))
        if {"gpuplat.cost.report", "gpuplat.cost.stranded"} <= set(c)
    ]
    assert together == []
