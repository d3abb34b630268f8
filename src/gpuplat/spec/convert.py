"""Turn pydantic validation errors into located diagnostics a person can act on."""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Sequence

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.source import Node


def diagnostics_from(
    exc: ValidationError, model: type[BaseModel], locator: Locator
) -> list[Diagnostic]:
    """One diagnostic per pydantic error, located in the source tree."""
    return [_convert(err, model, locator) for err in exc.errors(include_url=False)]


def _convert(err: ErrorDetails, model: type[BaseModel], locator: Locator) -> Diagnostic:
    path = _data_path(err["loc"], locator.root)
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    node, exact = locator.node(path)
    hint: str | None

    if kind == "missing":
        name = str(path[-1])
        owner = _model_at(model, path[:-1])
        described = _describe(owner, name)
        hint = f"add `{name}:` here. {described}" if described else f"add `{name}:` here"
        return locator.error(path, f'required key "{name}" is missing', hint)
    if kind == "extra_forbidden":
        name = str(path[-1])
        owner = _model_at(model, path[:-1])
        allowed = sorted(f.alias or n for n, f in owner.model_fields.items()) if owner else []
        close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.6)
        if close:
            hint = f'did you mean "{close[0]}"?'
        else:
            hint = "allowed keys here: " + ", ".join(allowed) if allowed else None
        return locator.error(path, f'unknown key "{name}"', hint, at_key=True)
    if kind in ("literal_error", "enum"):
        choices = _literal_choices(model, path)
        shown = ", ".join(str(c) for c in choices) if choices else str(ctx.get("expected", ""))
        hint = None
        if isinstance(value, str) and choices:
            close = difflib.get_close_matches(value, [str(c) for c in choices], n=1, cutoff=0.5)
            hint = f'did you mean "{close[0]}"?' if close else None
        return locator.error(path, f"{_show(value, node)} is not one of: {shown}", hint)
    if kind == "string_type":
        hint = None
        if isinstance(value, int | float) and not isinstance(value, bool) and exact and node.raw:
            hint = f'quote it: "{node.raw}" (unquoted, YAML reads it as a number)'
        elif isinstance(value, bool) and exact and node.raw:
            hint = f'quote it: "{node.raw}"'
        return locator.error(path, f"expected a string, got {_kind(value)}", hint)
    if kind in ("int_type", "int_parsing", "int_from_float"):
        hint = None
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            hint = f"remove the quotes: {value.strip()}"
        return locator.error(path, f"expected a whole number, got {_kind(value)}", hint)
    if kind in ("float_type", "float_parsing"):
        return locator.error(path, f"expected a number, got {_kind(value)}")
    if kind in ("bool_type", "bool_parsing"):
        hint = "write true or false" if isinstance(value, str) else None
        return locator.error(path, f"expected true or false, got {_kind(value)}", hint)
    if kind in ("list_type", "tuple_type"):
        hint = "write it as a YAML list: one `- item` per line, or [a, b]"
        return locator.error(path, f"expected a list, got {_kind(value)}", hint)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        hint = "write it as a mapping of `key: value` lines"
        return locator.error(path, f"expected a mapping, got {_kind(value)}", hint)
    if kind == "too_short":
        least = ctx.get("min_length", 1)
        key = next((str(p) for p in reversed(path) if isinstance(p, str)), "this list")
        return locator.error(
            path,
            f"{key} needs at least {least} item{'s' if least != 1 else ''}",
            f"see `{key}` in the spec reference (docs/reference/spec.md) for what an item holds",
        )
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        op = {
            "greater_than_equal": ">=",
            "greater_than": ">",
            "less_than_equal": "<=",
            "less_than": "<",
        }[kind]
        bound = next(iter(ctx.values()), "")
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)
        return locator.error(path, f"must be {op} {bound}, got {_show(value, node)}")
    if kind == "value_error":
        error = ctx.get("error")
        return locator.error(path, str(error) if error else err["msg"])
    return locator.error(path, err["msg"])


def _data_path(loc: Sequence[int | str], root: Node) -> KeyPath:
    """Keep the parts of a pydantic location that name keys or indexes in the data.

    Pydantic adds names of union members or validator steps to locations; those are not keys
    a person wrote, so they are dropped by walking the data alongside.
    """
    out: list[int | str] = []
    node: Node | None = root
    for k, part in enumerate(loc):
        value = node.value if node is not None else None
        if isinstance(value, dict) and isinstance(part, str):
            if part not in value and k < len(loc) - 1:
                continue  # a union member's tag: only the last part can be a missing key
            out.append(part)
            node = value.get(part)
        elif isinstance(value, list) and isinstance(part, int):
            out.append(part)
            node = value[part] if 0 <= part < len(value) else None
        elif node is None:
            out.append(part)  # below a missing key: keep the key that is missing
    return tuple(out)


def _unwrap(annotation: object) -> object:
    """Strip Optional/Annotated layers off a field annotation."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(members) != 1:
                return annotation
            annotation = members[0]
        else:
            return annotation


def _members(annotation: object) -> list[object]:
    """The alternatives of a union (one item for anything else), Annotated layers stripped."""
    annotation = _unwrap(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [_unwrap(a) for a in typing.get_args(annotation) if a is not type(None)]
    return [annotation]


def _field(model: type[BaseModel], key: str) -> object:
    """A model field's annotation by its key in the data (its alias, else its name)."""
    for name, field in model.model_fields.items():
        if (field.alias or name) == key:
            return field.annotation
    return None


def _step(annotation: object, part: int | str) -> object:
    """The annotation one key or index further down (the union member that has it)."""
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            if isinstance(part, str) and (found := _field(member, part)) is not None:
                return found
        elif typing.get_origin(member) is list and isinstance(part, int):
            return typing.get_args(member)[-1]
        elif typing.get_origin(member) is dict and isinstance(part, str):
            return typing.get_args(member)[-1]
    return None


def _annotation_at(model: type[BaseModel], path: KeyPath) -> object:
    annotation: object = model
    for part in path:
        annotation = _step(annotation, part)
        if annotation is None:
            return None
    return _unwrap(annotation)


def _model_at(model: type[BaseModel], path: KeyPath) -> type[BaseModel] | None:
    for member in _members(_annotation_at(model, path)):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None


def _literal_choices(model: type[BaseModel], path: KeyPath) -> list[object]:
    for member in _members(_annotation_at(model, path)):
        if typing.get_origin(member) is typing.Literal:
            return list(typing.get_args(member))
    return []


def _describe(owner: type[BaseModel] | None, name: str) -> str | None:
    fields = {f.alias or n: f for n, f in (owner.model_fields.items() if owner else ())}
    return fields[name].description if name in fields else None


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f'the string "{value}"'
    if value is None:
        return "an empty value"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _show(value: object, node: Node) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if node.raw is not None and not isinstance(value, dict | list):
        return node.raw
    return _kind(value)


def without_bad_values(
    data: object, exc: ValidationError, model: type[BaseModel], root: Node
) -> object | None:
    """A copy of ``data`` without the values pydantic rejected, when that leaves a valid shape.

    Only keys whose field has a default (or that are unknown) are dropped, never list items, so
    key paths stay the same and the semantic checks can still run and be located. Returns None
    when an error sits on a required field or a list item: then nothing sensible is left to
    check.
    """
    import copy

    repaired = copy.deepcopy(data)
    for err in exc.errors(include_url=False):
        path = _data_path(err["loc"], root)
        if err["type"] == "missing" or not path or not isinstance(path[-1], str):
            return None
        owner = _model_at(model, path[:-1])
        if owner is not None and err["type"] != "extra_forbidden":
            field = {f.alias or n: f for n, f in owner.model_fields.items()}.get(path[-1])
            if field is None or field.is_required():
                return None
        parent = repaired
        for part in path[:-1]:
            if isinstance(parent, dict) and isinstance(part, str):
                parent = parent.get(part)
            elif isinstance(parent, list) and isinstance(part, int) and part < len(parent):
                parent = parent[part]
            else:
                return None
        if not isinstance(parent, dict):
            return None
        parent.pop(path[-1], None)
    return repaired
