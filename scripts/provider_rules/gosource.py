"""A Go source tree read with tree-sitter: packages by directory, their functions, methods,
constants and variables, and where an import path lives on disk (module tree or vendor/)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import tree_sitter_go
from tree_sitter import Language, Node, Parser

GO = Language(tree_sitter_go.language())
_PARSER = Parser(GO)


@dataclass
class Decl:
    """A top-level declaration: its node, the file it is in and that file's package."""

    node: Node
    file: Path
    package: Package

    @property
    def line(self) -> int:
        return self.node.start_point[0] + 1


@dataclass
class Package:
    """One directory's non-test Go files."""

    dir: Path
    imports: dict[Path, dict[str, str]] = field(default_factory=dict)  # file -> alias -> path
    funcs: dict[str, Decl] = field(default_factory=dict)
    methods: dict[tuple[str, str], Decl] = field(default_factory=dict)  # (receiver type, name)
    values: dict[str, Decl] = field(default_factory=dict)  # const/var name -> value expression
    iota: dict[str, int] = field(default_factory=dict)


def text(node: Node) -> str:
    """The source text of a node."""
    return node.text.decode("utf-8") if node.text is not None else ""


def parse(path: Path) -> Node:
    """The root node of one Go file."""
    return _PARSER.parse(path.read_bytes()).root_node


def _receiver_type(node: Node) -> str:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return ""
    names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text(receiver))
    return names[-1] if names else ""


class SourceTree:
    """A provider's source tree: the module's own packages plus vendored dependencies."""

    def __init__(self, root: Path, modules: dict[str, Path] | None = None) -> None:
        self.root = root
        self.modules = dict(modules or {})  # other Go modules' import path -> source tree
        go_mod = root / "go.mod"
        module = ""
        if go_mod.is_file():
            found = re.search(r"^module\s+(\S+)", go_mod.read_text(), re.MULTILINE)
            module = found.group(1) if found else ""
        self.module = module
        self._packages: dict[Path, Package | None] = {}

    def dir_of(self, import_path: str) -> Path | None:
        """Where an import path's source is, or None when it is not in the tree."""
        for module in sorted(self.modules, key=len, reverse=True):
            if import_path == module or import_path.startswith(module + "/"):
                candidate = self.modules[module] / import_path[len(module) :].lstrip("/")
                return candidate if candidate.is_dir() else None
        if self.module and (
            import_path == self.module or import_path.startswith(self.module + "/")
        ):
            candidate = self.root / import_path[len(self.module) :].lstrip("/")
        else:
            candidate = self.root / "vendor" / import_path
        return candidate if candidate.is_dir() else None

    def package(self, directory: Path) -> Package | None:
        """The package in a directory (parsed once), or None when it has no Go files."""
        directory = directory.resolve()
        if directory in self._packages:
            return self._packages[directory]
        files = sorted(
            p for p in directory.glob("*.go") if not p.name.endswith("_test.go") and p.is_file()
        )
        pkg = Package(directory) if files else None
        for path in files:
            assert pkg is not None
            self._index(pkg, path)
        self._packages[directory] = pkg
        return pkg

    def package_of_import(self, import_path: str) -> Package | None:
        found = self.dir_of(import_path)
        return self.package(found) if found is not None else None

    def _index(self, pkg: Package, path: Path) -> None:
        root = parse(path)
        imports: dict[str, str] = {}
        for child in root.children:
            if child.type == "import_declaration":
                for spec in _descendants(child, "import_spec"):
                    target = text(spec.child_by_field_name("path")).strip('"`')  # type: ignore[arg-type]
                    alias_node = spec.child_by_field_name("name")
                    alias = text(alias_node) if alias_node else self._package_name(target)
                    imports[alias] = target
            elif child.type == "function_declaration":
                name = text(child.child_by_field_name("name"))  # type: ignore[arg-type]
                pkg.funcs[name] = Decl(child, path, pkg)
            elif child.type == "method_declaration":
                name = text(child.child_by_field_name("name"))  # type: ignore[arg-type]
                pkg.methods[(_receiver_type(child), name)] = Decl(child, path, pkg)
            elif child.type in ("const_declaration", "var_declaration"):
                self._values(pkg, path, child)
        pkg.imports[path] = imports

    def _package_name(self, import_path: str) -> str:
        """The name an unaliased import binds: the package clause where the source is at hand,
        else the last path element (the one before a ``/vN`` major-version suffix)."""
        found = self.dir_of(import_path)
        for path in sorted(found.glob("*.go")) if found is not None else []:
            clause = re.search(r"^package\s+(\w+)", path.read_text(errors="replace"), re.M)
            if clause and not path.name.endswith("_test.go"):
                return clause.group(1)
        name = import_path.rsplit("/", 1)[-1]
        return import_path.rsplit("/", 2)[-2] if re.fullmatch(r"v\d+", name) else name

    def _values(self, pkg: Package, path: Path, decl: Node) -> None:
        specs = list(_descendants(decl, "const_spec")) + list(_descendants(decl, "var_spec"))
        last_value: Node | None = None
        for index, spec in enumerate(specs):
            names = [text(n) for n in spec.children_by_field_name("name")]
            value = spec.child_by_field_name("value")
            if value is not None:
                last_value = value
            elif decl.type == "const_declaration":
                value = last_value  # implicit repetition of the previous expression
            if value is None:
                continue
            exprs = list(value.named_children) if value.type == "expression_list" else [value]
            for i, name in enumerate(names):
                if i < len(exprs):
                    pkg.values[name] = Decl(exprs[i], path, pkg)
                    pkg.iota[name] = index


def _descendants(node: Node, kind: str, inside: bool = False) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            out.append(current)
            if not inside:
                continue
        stack.extend(reversed(current.named_children))
    return out


def descendants(node: Node, kind: str, inside: bool = False) -> list[Node]:
    """Every descendant of a kind, in source order; ``inside``: also those within a match."""
    return _descendants(node, kind, inside)


def go_string(literal: str) -> str:
    """The value of a Go string literal (interpreted or raw)."""
    if literal.startswith("`"):
        return literal[1:-1]
    body = literal[1:-1]
    out: list[str] = []
    i = 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "a": "\a",
              "b": "\b", "f": "\f", "v": "\v"}  # fmt: skip
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif nxt == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        elif nxt == "U":
            out.append(chr(int(body[i + 2 : i + 10], 16)))
            i += 10
        elif nxt.isdigit():
            out.append(chr(int(body[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(nxt)
            i += 2
    return "".join(out)
