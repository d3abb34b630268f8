"""A small evaluator for the Go that builds provider schemas.

It evaluates expressions (literals, composite literals, constants, calls of the tree's own
functions with their arguments bound) and the few statements schema builders use (assignments,
map and field stores, ``if`` on values it knows, ``for … range`` over a known map, ``return``).
Calls into packages outside the tree go to :mod:`library`, which knows the validator
constructors of terraform-plugin-sdk and terraform-plugin-framework-validators. Whatever it
cannot evaluate becomes an :class:`Unknown` carrying the reason, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tree_sitter import Node

from .gosource import Decl, Package, SourceTree, go_string, text

MAX_DEPTH = 40


@dataclass
class Unknown:
    """A value the evaluator could not work out, and why."""

    reason: str


@dataclass
class Struct:
    """A struct literal (``schema.Schema{...}``), its fields, and where it was written."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    file: Path | None = None
    line: int = 0


@dataclass(frozen=True)
class External:
    """A name in a package outside the tree: ``validation.StringLenBetween``."""

    package: str
    name: str


@dataclass(frozen=True)
class FuncRef:
    """A function of the tree, not called (``ValidateFunc: validName``)."""

    decl: Decl


@dataclass(frozen=True)
class Regex:
    """``regexp.MustCompile(pattern)``."""

    pattern: str


@dataclass
class Validator:
    """A validator reduced to a check; ``spec`` is its JSON form (see the rules format)."""

    spec: dict[str, Any]


@dataclass
class Opaque:
    """A validator that is real but not reducible to data (a custom function, say)."""

    what: str
    file: Path | None = None
    line: int = 0


@dataclass
class FuncLit:
    """An inline function (``func(v interface{}, k string) ...``) and the frame it closes over."""

    node: Node
    frame: Frame


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


@dataclass
class Frame:
    """Where code is evaluated: its package and file (for imports) and its local variables."""

    package: Package
    file: Path
    env: dict[str, Any] = field(default_factory=dict)
    depth: int = 0


LibraryCall = Callable[["Evaluator", External, list[Any], Node, Frame], Any]


class Evaluator:
    """Evaluates expressions and function bodies of one source tree."""

    def __init__(
        self,
        tree: SourceTree,
        library: LibraryCall,
        constants: dict[tuple[str, str], Any] | None = None,
        modelled: tuple[str, ...] = (),
    ) -> None:
        self.tree = tree
        self.modelled = modelled
        self.library = library
        self.constants = constants or {}
        self._value_cache: dict[tuple[Path, str], Any] = {}

    # -- names -------------------------------------------------------------------------------

    def resolve_import(self, frame: Frame, alias: str) -> str | None:
        return frame.package.imports.get(frame.file, {}).get(alias)

    def package_value(self, pkg: Package, name: str, depth: int) -> Any:
        if name in pkg.funcs:
            return FuncRef(pkg.funcs[name])
        decl = pkg.values.get(name)
        if decl is None:
            return Unknown(f"{name} not found in {pkg.dir.name}")
        key = (pkg.dir, name)
        if key not in self._value_cache:
            self._value_cache[key] = Unknown(f"{name} is defined in terms of itself")
            frame = Frame(pkg, decl.file, {"iota": pkg.iota.get(name, 0)}, depth + 1)
            self._value_cache[key] = self.expr(decl.node, frame)
        return self._value_cache[key]

    def qualified(self, frame: Frame, alias: str, name: str) -> Any:
        target = self.resolve_import(frame, alias)
        if target is None:
            return None
        if (target, name) in self.constants:
            return self.constants[(target, name)]
        if any(marker in target for marker in self.modelled):
            return External(target, name)  # modelled even where vendored into the tree
        pkg = self.tree.package_of_import(target)
        if pkg is None:
            return External(target, name)
        return self.package_value(pkg, name, frame.depth)

    # -- expressions -------------------------------------------------------------------------

    def expr(self, node: Node | None, frame: Frame) -> Any:
        if node is None:
            return Unknown("missing expression")
        if frame.depth > MAX_DEPTH:
            return Unknown("evaluation too deep")
        kind = node.type
        handler = getattr(self, "_e_" + kind, None)
        if handler is None:
            return Unknown(f"{kind}: {text(node)[:60]}")
        return handler(node, frame)

    def _e_parenthesized_expression(self, node: Node, frame: Frame) -> Any:
        return self.expr(node.named_children[0], frame)

    def _e_interpreted_string_literal(self, node: Node, frame: Frame) -> Any:
        return go_string(text(node))

    _e_raw_string_literal = _e_interpreted_string_literal

    def _e_int_literal(self, node: Node, frame: Frame) -> Any:
        return int(text(node).replace("_", ""), 0)

    def _e_float_literal(self, node: Node, frame: Frame) -> Any:
        return float(text(node).replace("_", ""))

    def _e_true(self, node: Node, frame: Frame) -> Any:
        return True

    def _e_false(self, node: Node, frame: Frame) -> Any:
        return False

    def _e_nil(self, node: Node, frame: Frame) -> Any:
        return None

    def _e_identifier(self, node: Node, frame: Frame) -> Any:
        name = text(node)
        if name in frame.env:
            return frame.env[name]
        if name in ("true", "false"):
            return name == "true"
        if name == "nil":
            return None
        return self.package_value(frame.package, name, frame.depth)

    def _e_selector_expression(self, node: Node, frame: Frame) -> Any:
        operand = node.child_by_field_name("operand")
        name = text(node.child_by_field_name("field"))  # type: ignore[arg-type]
        assert operand is not None
        if operand.type == "identifier" and text(operand) not in frame.env:
            found = self.qualified(frame, text(operand), name)
            if found is not None:
                return found
        base = self.expr(operand, frame)
        if isinstance(base, Struct):
            return base.fields.get(name, Unknown(f"field {name} not set"))
        if isinstance(base, External):
            return External(base.package, f"{base.name}.{name}")
        return Unknown(f"selector {text(node)[:60]}")

    def _e_unary_expression(self, node: Node, frame: Frame) -> Any:
        op = text(node.child_by_field_name("operator"))  # type: ignore[arg-type]
        value = self.expr(node.child_by_field_name("operand"), frame)
        if op == "&" or op == "*":
            return value
        if op == "!" and isinstance(value, bool):
            return not value
        if op == "-" and isinstance(value, int | float):
            return -value
        return Unknown(f"unary {op}")

    def _e_binary_expression(self, node: Node, frame: Frame) -> Any:
        op = text(node.child_by_field_name("operator"))  # type: ignore[arg-type]
        left = self.expr(node.child_by_field_name("left"), frame)
        right = self.expr(node.child_by_field_name("right"), frame)
        try:
            if op == "+" and type(left) is type(right) and isinstance(left, str | int | float):
                return left + right
            if isinstance(left, int) and isinstance(right, int) and op in "-*/%":
                return {"-": left - right, "*": left * right, "/": left // right if right else 0,
                        "%": left % right if right else 0}[op]  # fmt: skip
            opaque = (Unknown, External)
            if (
                op in ("==", "!=")
                and not isinstance(left, opaque)
                and not isinstance(right, opaque)
            ):
                return (left == right) == (op == "==")
            if op == "&&" and isinstance(left, bool) and isinstance(right, bool):
                return left and right
            if op == "||" and isinstance(left, bool) and isinstance(right, bool):
                return left or right
        except TypeError:
            pass
        return Unknown(f"binary {op}")

    def _e_type_assertion_expression(self, node: Node, frame: Frame) -> Any:
        return self.expr(node.child_by_field_name("operand"), frame)

    def _e_index_expression(self, node: Node, frame: Frame) -> Any:
        base = self.expr(node.child_by_field_name("operand"), frame)
        index = self.expr(node.child_by_field_name("index"), frame)
        if isinstance(base, dict) and isinstance(index, str):
            return base.get(index, Unknown(f"no key {index}"))
        if isinstance(base, list) and isinstance(index, int) and 0 <= index < len(base):
            return base[index]
        return Unknown(f"index {text(node)[:60]}")

    def _e_func_literal(self, node: Node, frame: Frame) -> Any:
        return FuncLit(node, Frame(frame.package, frame.file, dict(frame.env), frame.depth))

    def _e_composite_literal(self, node: Node, frame: Frame) -> Any:
        type_node = node.child_by_field_name("type")
        body = node.child_by_field_name("body")
        assert body is not None
        return self.literal(body, type_node, frame)

    def literal(self, body: Node, type_node: Node | None, frame: Frame) -> Any:
        type_kind = type_node.type if type_node is not None else ""
        if type_kind in ("slice_type", "array_type", "implicit_length_array_type"):
            elem = type_node.child_by_field_name("element") if type_node else None
            return [self._element(e, elem, frame) for e in self._items(body)]
        if type_kind == "map_type":
            value_type = type_node.child_by_field_name("value") if type_node else None
            out: dict[Any, Any] = {}
            for child in body.named_children:
                if child.type != "keyed_element":
                    continue
                key_node, value_node = child.named_children[0], child.named_children[-1]
                key = self._element(key_node, None, frame)
                value = self._element(value_node, value_type, frame)
                if isinstance(value, Struct) and not value.line:
                    value.file, value.line = frame.file, child.start_point[0] + 1
                if isinstance(key, str):
                    out[key] = value
            return out
        struct = Struct(self._type_name(type_node), {}, frame.file, body.start_point[0] + 1)
        for child in body.named_children:
            if child.type == "keyed_element":
                key_node, value_node = child.named_children[0], child.named_children[-1]
                name = text(key_node).strip()
                struct.fields[name] = self._element(value_node, None, frame)
            elif child.type == "literal_element":
                struct.fields.setdefault("_positional", []).append(
                    self._element(child, None, frame)
                )
        return struct

    def _items(self, body: Node) -> list[Node]:
        return [c for c in body.named_children if c.type in ("literal_element", "keyed_element")]

    def _element(self, node: Node, type_node: Node | None, frame: Frame) -> Any:
        if node.type == "keyed_element":
            node = node.named_children[-1]
        inner = node.named_children[0] if node.type == "literal_element" else node
        if inner.type == "literal_value":
            return self.literal(inner, _strip_pointer(type_node), frame)
        return self.expr(inner, frame)

    def _type_name(self, type_node: Node | None) -> str:
        if type_node is None:
            return ""
        return text(_strip_pointer(type_node) or type_node).split("[", 1)[0]

    def _e_call_expression(self, node: Node, frame: Frame) -> Any:
        fn_node = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        assert fn_node is not None
        arg_nodes = list(args_node.named_children if args_node else [])
        spread = args_node is not None and text(args_node).rstrip(")").rstrip().endswith("...")
        if fn_node.type in ("identifier",) and text(fn_node) not in frame.env:
            builtin = self._builtin(text(fn_node), arg_nodes, frame, spread)
            if builtin is not _NOT_BUILTIN:
                return builtin
        if fn_node.type in ("slice_type", "parenthesized_type", "array_type"):
            return self.expr(arg_nodes[0], frame) if arg_nodes else Unknown("conversion")
        fn = self.expr(fn_node, frame)
        args = [self.expr(a, frame) for a in arg_nodes if a.type != "type_identifier"]
        if spread and args and isinstance(args[-1], list):
            args = args[:-1] + list(args[-1])
        if isinstance(fn, FuncRef):
            return self.call(fn.decl, args, frame.depth)
        if isinstance(fn, FuncLit) and not args:
            return self.call_literal(fn)
        if isinstance(fn, External):
            return self.library(self, fn, args, node, frame)
        if isinstance(fn, Unknown):
            return Unknown(f"call {text(fn_node)[:60]}: {fn.reason}")
        return Unknown(f"call of {type(fn).__name__}")

    def _builtin(self, name: str, arg_nodes: list[Node], frame: Frame, spread: bool) -> Any:
        if name in ("string", "int", "int64", "int32", "float64", "bool"):
            if name in frame.env or name in frame.package.funcs:
                return _NOT_BUILTIN
            return self.expr(arg_nodes[0], frame) if arg_nodes else Unknown("conversion")
        if name == "append" and arg_nodes:
            base = self.expr(arg_nodes[0], frame)
            rest = [self.expr(a, frame) for a in arg_nodes[1:]]
            if spread and rest and isinstance(rest[-1], list):
                rest = rest[:-1] + list(rest[-1])
            return [*base, *rest] if isinstance(base, list) else Unknown("append")
        if name == "len" and arg_nodes:
            value = self.expr(arg_nodes[0], frame)
            return len(value) if isinstance(value, str | list | dict) else Unknown("len")
        if name == "make":
            return {} if arg_nodes and arg_nodes[0].type == "map_type" else []
        return _NOT_BUILTIN

    # -- functions ---------------------------------------------------------------------------

    def call(self, decl: Decl, args: list[Any], depth: int = 0, receiver: Any = None) -> Any:
        """Interpret a function of the tree with its arguments bound; its (first) result."""
        frame = Frame(decl.package, decl.file, {}, depth + 1)
        if frame.depth > MAX_DEPTH:
            return Unknown("call too deep")
        params = decl.node.child_by_field_name("parameters")
        names: list[tuple[str, bool]] = []
        for param in params.named_children if params else []:
            variadic = param.type == "variadic_parameter_declaration"
            for name_node in param.children_by_field_name("name"):
                names.append((text(name_node), variadic))
        for i, (name, variadic) in enumerate(names):
            frame.env[name] = (
                args[i:] if variadic else (args[i] if i < len(args) else Unknown(name))
            )
        recv = decl.node.child_by_field_name("receiver")
        if recv is not None:
            for param in recv.named_children:
                for name_node in param.children_by_field_name("name"):
                    frame.env[text(name_node)] = receiver
        body = decl.node.child_by_field_name("body")
        try:
            if body is not None:
                self.block(body, frame)
        except _Return as ret:
            return ret.value
        return Unknown(f"{text(decl.node.child_by_field_name('name'))} returns nothing known")  # type: ignore[arg-type]

    def call_literal(self, fn: FuncLit) -> Any:
        """Interpret an inline function without arguments (``SchemaFunc: func() ... {}``)."""
        frame = Frame(fn.frame.package, fn.frame.file, dict(fn.frame.env), fn.frame.depth + 1)
        body = fn.node.child_by_field_name("body")
        try:
            if body is not None:
                self.block(body, frame)
        except _Return as ret:
            return ret.value
        return Unknown("inline function returns nothing known")

    def block(self, node: Node, frame: Frame) -> None:
        for stmt in node.named_children:
            if stmt.type == "statement_list":
                self.block(stmt, frame)
            else:
                self.statement(stmt, frame)

    def statement(self, node: Node, frame: Frame) -> None:
        kind = node.type
        if kind in ("short_var_declaration", "assignment_statement"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            op = text(node.child_by_field_name("operator") or node).strip()
            lhs = left.named_children if left else []
            rhs = right.named_children if right else []
            values = [self.expr(r, frame) for r in rhs]
            for i, target in enumerate(lhs):
                value = values[i] if i < len(values) else Unknown("multi-value")
                if op == "+=":
                    current = self.expr(target, frame)
                    value = current + value if type(current) is type(value) else Unknown("+=")
                self.assign(target, value, frame)
        elif kind == "var_declaration":
            for spec in [c for c in node.named_children if c.type == "var_spec"]:
                value = spec.child_by_field_name("value")
                exprs = value.named_children if value is not None else []
                for i, name_node in enumerate(spec.children_by_field_name("name")):
                    frame.env[text(name_node)] = (
                        self.expr(exprs[i], frame) if i < len(exprs) else None
                    )
        elif kind == "return_statement":
            exprs = node.named_children[0].named_children if node.named_children else []
            raise _Return(self.expr(exprs[0], frame) if exprs else None)
        elif kind == "if_statement":
            init = node.child_by_field_name("initializer")
            if init is not None:
                self.statement(init, frame)
            condition = self.expr(node.child_by_field_name("condition"), frame)
            if condition is True:
                self.block(node.child_by_field_name("consequence"), frame)  # type: ignore[arg-type]
            elif condition is False:
                alternative = node.child_by_field_name("alternative")
                if alternative is not None:
                    if alternative.type == "if_statement":
                        self.statement(alternative, frame)
                    else:
                        self.block(alternative, frame)
        elif kind == "for_statement":
            self._range(node, frame)
        elif kind == "expression_statement":
            call = node.named_children[0]
            if call.type == "call_expression":
                fn = call.child_by_field_name("function")
                args = call.child_by_field_name("arguments")
                if fn is not None and text(fn) == "delete" and args is not None:
                    target = self.expr(args.named_children[0], frame)
                    key = self.expr(args.named_children[1], frame)
                    if isinstance(target, dict) and isinstance(key, str):
                        target.pop(key, None)
        elif kind == "block":
            self.block(node, frame)

    def _range(self, node: Node, frame: Frame) -> None:
        clause = next((c for c in node.named_children if c.type == "range_clause"), None)
        body = node.child_by_field_name("body")
        if clause is None or body is None:
            return
        left = clause.child_by_field_name("left")
        source = self.expr(clause.child_by_field_name("right"), frame)
        names = [text(n) for n in left.named_children] if left is not None else []
        if isinstance(source, dict):
            items = list(source.items())
        elif isinstance(source, list):
            items = list(enumerate(source))
        else:
            return
        for key, value in items:
            if names:
                frame.env[names[0]] = key
            if len(names) > 1:
                frame.env[names[1]] = value
            self.block(body, frame)

    def assign(self, target: Node, value: Any, frame: Frame) -> None:
        if target.type == "identifier":
            if text(target) != "_":
                frame.env[text(target)] = value
        elif target.type == "index_expression":
            container = self.expr(target.child_by_field_name("operand"), frame)
            key = self.expr(target.child_by_field_name("index"), frame)
            if isinstance(container, dict) and isinstance(key, str):
                container[key] = value
        elif target.type == "selector_expression":
            obj = self.expr(target.child_by_field_name("operand"), frame)
            name = text(target.child_by_field_name("field"))  # type: ignore[arg-type]
            if isinstance(obj, Struct):
                obj.fields[name] = value


_NOT_BUILTIN = object()


def _strip_pointer(type_node: Node | None) -> Node | None:
    while type_node is not None and type_node.type == "pointer_type":
        type_node = type_node.named_children[0] if type_node.named_children else None
    return type_node
