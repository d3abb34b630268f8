"""The import graph of the gpuplat package, read from the source (no import is executed)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


@dataclass(frozen=True)
class Import:
    module: str
    target: str
    names: tuple[str, ...]
    line: int


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / "gpuplat").rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, annotations: bool = False) -> Iterator[ast.AST]:
    """Every node, skipping ``if TYPE_CHECKING:`` bodies (annotations only, never run) unless
    ``annotations``."""
    for child in ast.iter_child_nodes(node):
        if not annotations and isinstance(child, ast.If) and _type_checking(child):
            for other in child.orelse:
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child, annotations)


def imports_of(name: str, path: Path, known: set[str], annotations: bool = False) -> list[Import]:
    """gpuplat imports of one module, at module level and inside functions (and, with
    ``annotations``, those made for type annotations only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[Import] = []
    for node in _walk(tree, annotations):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gpuplat"):
                    out.append(Import(name, alias.name, (), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if not base.startswith("gpuplat"):
                continue
            names = tuple(a.name for a in node.names)
            for alias in names:
                sub = f"{base}.{alias}"
                # `from pkg import submodule` depends on the submodule itself.
                out.append(Import(name, sub if sub in known else base, (alias,), node.lineno))
    return out


def graph(annotations: bool = False) -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {
        name: {i.target for i in imports_of(name, path, known, annotations) if i.target != name}
        for name, path in mods.items()
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found
