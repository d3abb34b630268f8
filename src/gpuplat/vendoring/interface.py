"""A module's interface read from its own files: variables with their types, and outputs.

Type constraints (``object({ name = string, n = optional(number, 2) })``) are read from
python-hcl2's expression tree, so the generated CDKTF constructs are typed from exactly what
the module declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hcl2.rules.base import AttributeRule, BlockRule
from hcl2.utils import SerializationOptions

from gpuplat.vendoring.layout import LayoutError, parse

_PLAIN = SerializationOptions(with_comments=False, strip_string_quotes=True)


@dataclass(frozen=True)
class Type:
    """A Terraform type constraint.

    ``kind`` is a primitive (``string``, ``number``, ``bool``, ``any``), a collection
    (``list``, ``set``, ``map``: one element type in ``args``), ``tuple`` (``args``), or
    ``object`` (``fields``).
    """

    kind: str
    args: tuple[Type, ...] = ()
    fields: tuple[Field, ...] = ()


@dataclass(frozen=True)
class Field:
    """One attribute of an object type."""

    name: str
    type: Type
    optional: bool


@dataclass(frozen=True)
class Variable:
    """One ``variable`` block."""

    name: str
    type: Type
    required: bool
    description: str


@dataclass
class Interface:
    """A module's variables and outputs, in declaration order."""

    variables: list[Variable] = field(default_factory=list)
    outputs: list[tuple[str, str]] = field(default_factory=list)
    """(name, description)."""


ANY = Type("any")


def _inner(node: object) -> object:
    """The meaningful child of an expression term (python-hcl2 pads them with None)."""
    while type(node).__name__ == "ExprTermRule":
        node = next((c for c in node.children if c is not None), None)  # type: ignore[attr-defined]
    return node


def read_type(expression: object) -> Type:
    """The type an expression of a ``type = ...`` argument denotes (``any`` if unreadable)."""
    node = _inner(expression)
    name = type(node).__name__
    if name == "IdentifierRule":
        return Type(str(node.serialize(_PLAIN)))  # type: ignore[attr-defined]
    if name != "FunctionCallRule":
        return ANY
    func = str(node.children[0].serialize(_PLAIN))  # type: ignore[attr-defined]
    args = [
        c
        for rule in node.children  # type: ignore[attr-defined]
        if type(rule).__name__ == "ArgumentsRule"
        for c in rule.children
        if c is not None and type(c).__name__ not in ("COMMA_TOKEN", "NewLineOrCommentRule")
    ]
    if func in ("list", "set", "map") and args:
        return Type(func, (read_type(args[0]),))
    if func == "tuple" and args:
        items = _inner(args[0])
        elems = [c for c in getattr(items, "children", ()) if type(c).__name__ == "ExprTermRule"]
        return Type("tuple", tuple(read_type(e) for e in elems))
    if func == "object" and args:
        return Type("object", fields=tuple(_fields(_inner(args[0]))))
    return ANY


def _fields(obj: object) -> list[Field]:
    out: list[Field] = []
    for elem in getattr(obj, "children", ()):
        if type(elem).__name__ != "ObjectElemRule":
            continue
        key = str(elem.children[0].serialize(_PLAIN)).strip('"')
        value = _inner(elem.children[2])
        optional = False
        if (
            type(value).__name__ == "FunctionCallRule"
            and str(value.children[0].serialize(_PLAIN)) == "optional"  # type: ignore[attr-defined]
        ):
            optional = True
            args = [
                c
                for rule in value.children  # type: ignore[attr-defined]
                if type(rule).__name__ == "ArgumentsRule"
                for c in rule.children
                if c is not None and type(c).__name__ == "ExprTermRule"
            ]
            typed = read_type(args[0]) if args else ANY
        else:
            typed = read_type(value)
        out.append(Field(key, typed, optional))
    return out


def _attrs(block: BlockRule) -> dict[str, AttributeRule]:
    return {
        str(c.identifier.serialize(_PLAIN)): c
        for c in block.body.children
        if isinstance(c, AttributeRule)
    }


def read_interface(files: Mapping[str, str]) -> Interface:
    """The variables and outputs declared in a module's .tf files (``{file name: text}``)."""
    found = Interface()
    for name, text in sorted(files.items()):
        if not name.endswith(".tf"):
            continue
        try:
            _, items = parse(text)
        except LayoutError:
            continue
        for item in items:
            if not isinstance(item.node, BlockRule) or not item.labels:
                continue
            attrs = _attrs(item.node)
            desc = attrs.get("description")
            description = str(desc.expression.serialize(_PLAIN)) if desc else ""
            if item.type == "variable":
                typed = read_type(attrs["type"].expression) if "type" in attrs else ANY
                found.variables.append(
                    Variable(item.labels[0], typed, "default" not in attrs, description)
                )
            elif item.type == "output":
                found.outputs.append((item.labels[0], description))
    return found
