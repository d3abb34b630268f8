"""Where a provider defines each resource and data source type: the registration maps
(``"google_container_node_pool": container.ResourceContainerNodePool()``), aws's
``@SDKResource("aws_iam_role")`` annotations, azurerm's typed resources (``ResourceType()``)
and plugin-framework ``Metadata`` methods (``req.ProviderTypeName + "_release"``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from .gosource import Decl, Package, SourceTree, descendants, go_string, parse, text

Kind = str  # "resource" | "data"


@dataclass
class Definition:
    """How to get one type's schema."""

    kind: Kind
    type_name: str
    style: str  # "sdk-expr", "sdk-func", "typed", "framework"
    package: Package
    file: Path
    node: Node | None = None  # sdk-expr: the value expression
    decl: Decl | None = None  # sdk-func: the function; typed/framework: the receiver's method
    receiver: str = ""


_ANNOTATION = re.compile(r"@(SDK|Framework)(Resource|DataSource)\(\s*\"([a-z0-9_]+)\"")


def _enclosing_name(node: Node) -> str:
    current: Node | None = node
    while current is not None:
        if current.type in ("function_declaration", "method_declaration"):
            name = current.child_by_field_name("name")
            return text(name) if name else ""
        if current.type in ("var_spec", "const_spec"):
            names = current.children_by_field_name("name")
            return text(names[0]) if names else ""
        current = current.parent
    return ""


def _kind_of(name: str) -> Kind:
    return "data" if re.search(r"data", name, re.IGNORECASE) else "resource"


def _kind_at(element: Node) -> Kind:
    """data or resource: from the map field (``DataSourcesMap:``), else the enclosing name."""
    current = element.parent
    while current is not None:
        if current.type == "keyed_element":
            key = text(current.named_children[0])
            if re.fullmatch(r"[A-Za-z_]\w*", key):
                return _kind_of(key)
        if current.type in ("function_declaration", "method_declaration", "var_spec"):
            break
        current = current.parent
    return _kind_of(_enclosing_name(element))


def _registry_struct(element: Node) -> tuple[Kind, Node] | None:
    """``registry.Schema{Name: "t", Type: registry.SchemaTypeResource, Schema: F()}``."""
    body = element.parent
    if body is None or body.type != "literal_value":
        return None
    fields: dict[str, Node] = {}
    for sibling in body.named_children:
        if sibling.type == "keyed_element":
            value = sibling.named_children[-1]
            fields[text(sibling.named_children[0])] = (
                value.named_children[0] if value.named_children else value
            )
    if "Schema" not in fields or "Type" not in fields:
        return None
    return _kind_of(text(fields["Type"])), fields["Schema"]


def go_files(root: Path) -> Iterable[Path]:
    for path in sorted(root.rglob("*.go")):
        rel = path.relative_to(root).parts
        if rel[0] in ("vendor", "website", "examples", "docs") or path.name.endswith("_test.go"):
            continue
        yield path


def find(
    tree: SourceTree, provider: str, wanted: set[tuple[Kind, str]]
) -> dict[tuple[Kind, str], Definition]:
    """Locate the definition of every wanted (kind, type)."""
    names = {t for _, t in wanted}
    found: dict[tuple[Kind, str], Definition] = {}
    suffixes = {t[len(provider) :] for t in names if t.startswith(provider)}
    for path in go_files(tree.root):
        raw = path.read_text(encoding="utf-8", errors="replace")
        if not any(f'"{t}"' in raw for t in names) and "ProviderTypeName" not in raw:
            continue
        pkg = tree.package(path.parent)
        if pkg is None:
            continue
        root = parse(path)
        for element in descendants(root, "keyed_element", inside=True):
            key = element.named_children[0]
            inner = key.named_children[0] if key.named_children else key
            value_node = element.named_children[-1]
            value_inner = value_node.named_children[0] if value_node.named_children else value_node
            if text(key) == "Name" and value_inner.type == "interpreted_string_literal":
                named = go_string(text(value_inner))
                registered = _registry_struct(element) if named in names else None
                ident = (registered[0], named) if registered is not None else None
                if registered is not None and ident in wanted and ident not in found:
                    found[ident] = Definition(
                        registered[0], named, "sdk-expr", pkg, path, registered[1]
                    )
                continue
            if inner.type != "interpreted_string_literal":
                continue
            if text(key) == "Name" or (
                key.type == "literal_element" and inner.type == "identifier"
            ):
                continue
            type_name = go_string(text(inner))
            if type_name not in names:
                continue
            value = element.named_children[-1]
            value = value.named_children[0] if value.named_children else value
            if value.type not in ("call_expression", "identifier", "selector_expression"):
                continue
            kind = _kind_at(element)
            if (kind, type_name) in wanted and (kind, type_name) not in found:
                found[(kind, type_name)] = Definition(kind, type_name, "sdk-expr", pkg, path, value)
        if "@SDK" in raw or "@Framework" in raw:
            _annotations(root, pkg, path, wanted, found)
        if "ResourceType()" in raw:
            _typed(root, pkg, path, wanted, found)
        if "ProviderTypeName" in raw:
            _framework(root, pkg, path, provider, suffixes, wanted, found)
    return found


def _annotations(root: Node, pkg: Package, path: Path, wanted: set[tuple[Kind, str]],
                 found: dict[tuple[Kind, str], Definition]) -> None:  # fmt: skip
    pending: list[tuple[str, str, str]] = []
    for child in root.children:
        if child.type == "comment":
            match = _ANNOTATION.search(text(child))
            if match:
                pending.append(match.groups())
            continue
        if child.type == "function_declaration" and pending:
            name = text(child.child_by_field_name("name"))  # type: ignore[arg-type]
            for sdk, what, type_name in pending:
                kind = "data" if what == "DataSource" else "resource"
                if (kind, type_name) in wanted and (kind, type_name) not in found:
                    style = "sdk-func" if sdk == "SDK" else "framework-factory"
                    found[(kind, type_name)] = Definition(
                        kind, type_name, style, pkg, path, decl=pkg.funcs.get(name)
                    )
        pending = []


def _returned_string(method: Node) -> str | None:
    body = method.child_by_field_name("body")
    if body is None:
        return None
    for ret in descendants(body, "return_statement"):
        lits = descendants(ret, "interpreted_string_literal")
        if len(lits) == 1:
            return go_string(text(lits[0]))
    return None


def _typed(root: Node, pkg: Package, path: Path, wanted: set[tuple[Kind, str]],
           found: dict[tuple[Kind, str], Definition]) -> None:  # fmt: skip
    for method in descendants(root, "method_declaration"):
        if text(method.child_by_field_name("name")) != "ResourceType":  # type: ignore[arg-type]
            continue
        type_name = _returned_string(method)
        receiver = re.findall(r"[A-Za-z_]\w*", text(method.child_by_field_name("receiver")))[-1]  # type: ignore[arg-type]
        kind = "data" if "DataSource" in receiver else "resource"
        if type_name and (kind, type_name) in wanted and (kind, type_name) not in found:
            found[(kind, type_name)] = Definition(kind, type_name, "typed", pkg, path,
                                                  receiver=receiver)  # fmt: skip


def _framework(root: Node, pkg: Package, path: Path, provider: str, suffixes: set[str],
               wanted: set[tuple[Kind, str]], found: dict[tuple[Kind, str], Definition]) -> None:  # fmt: skip
    for method in descendants(root, "method_declaration"):
        if text(method.child_by_field_name("name")) != "Metadata":  # type: ignore[arg-type]
            continue
        body = text(method)
        match = re.search(r"ProviderTypeName\s*\+\s*\"([a-z0-9_]+)\"", body)
        if not match or match.group(1) not in suffixes:
            continue
        receiver = re.findall(r"[A-Za-z_]\w*", text(method.child_by_field_name("receiver")))[-1]  # type: ignore[arg-type]
        params = text(method.child_by_field_name("parameters"))  # type: ignore[arg-type]
        kind = "data" if "datasource." in params else "resource"
        type_name = provider + match.group(1)
        if (kind, type_name) in wanted and (kind, type_name) not in found:
            found[(kind, type_name)] = Definition(kind, type_name, "framework", pkg, path,
                                                  receiver=receiver)  # fmt: skip
