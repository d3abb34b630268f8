"""A CRD's structural schema as the API server applies it: types, enums, bounds, patterns,
required fields, closed objects, list uniqueness, and defaults — checked with ``jsonschema``.

A CRD's ``openAPIV3Schema`` is OpenAPI 3.0 (JSON Schema draft 4 keywords, plus ``nullable``
and the ``x-kubernetes-*`` extensions). :func:`json_schema` turns it into a draft-4 schema:

* an object with ``properties`` and neither ``additionalProperties`` nor
  ``x-kubernetes-preserve-unknown-fields`` is closed: a field the schema does not have is an
  error. The API server would prune it silently, but ``kubectl apply`` (field validation
  ``Strict``) and the Terraform kubernetes provider's ``kubernetes_manifest`` (which shapes
  the manifest to the cluster's OpenAPI type at plan) refuse it;
* ``x-kubernetes-int-or-string`` accepts an integer or a string; ``nullable`` accepts null;
* ``x-kubernetes-list-type: set`` items are unique, ``map`` items unique by their
  ``x-kubernetes-list-map-keys``.

Formats (``int32``, ``date-time``, ...) are not checked. :class:`~gpuplat.crds.values.Unknown`
values pass every keyword: what they will be is checked where they are known.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import jsonschema
from jsonschema import Draft4Validator
from jsonschema.exceptions import ValidationError

from gpuplat.crds.catalog import Definition, Schema
from gpuplat.crds.values import Path, Unknown

CONSTRAINTS = (
    "type",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "x-kubernetes-list-type",
)
"""Keywords that each count as one constraint (``required`` counts once per field, a closed
object once)."""


def _closed(node: Schema) -> bool:
    return (
        "properties" in node
        and "additionalProperties" not in node
        and not node.get("x-kubernetes-preserve-unknown-fields", False)
    )


def json_schema(node: Schema) -> Schema:
    """The draft-4 JSON Schema that checks what an OpenAPI v3 CRD schema node allows."""
    out: Schema = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: json_schema(sub) for name, sub in value.items()}
        elif key == "items" and isinstance(value, dict):
            out[key] = json_schema(value)
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = json_schema(value)
        elif key in ("allOf", "anyOf", "oneOf"):
            out[key] = [json_schema(sub) for sub in value]
        elif key == "not":
            out[key] = json_schema(value)
        elif key in ("description", "default", "example", "format", "nullable"):
            continue
        else:
            out[key] = value
    if node.get("x-kubernetes-int-or-string"):
        out.pop("type", None)
        out["type"] = ["integer", "string"]
    if node.get("nullable") and "type" in out:
        kinds = out["type"] if isinstance(out["type"], list) else [out["type"]]
        out["type"] = [*kinds, "null"]
    if _closed(node):
        out["additionalProperties"] = False
    if node.get("x-kubernetes-list-type") == "set":
        out["uniqueItems"] = True
    return out


def _skip_unknown(check: Callable[..., Iterator[ValidationError]]) -> Callable[..., Any]:
    def wrapped(
        validator: Any, value: Any, instance: Any, schema: Schema
    ) -> Iterator[ValidationError]:
        if isinstance(instance, Unknown):
            return
        yield from check(validator, value, instance, schema)

    return wrapped


def _list_map_keys(
    validator: Any, keys: list[str], instance: Any, schema: Schema
) -> Iterator[ValidationError]:
    if schema.get("x-kubernetes-list-type") != "map" or not isinstance(instance, list):
        return
    seen: set[tuple[object, ...]] = set()
    for item in instance:
        if not isinstance(item, dict) or any(isinstance(item.get(k), Unknown) for k in keys):
            continue
        key = tuple(repr(item.get(k)) for k in keys)
        if key in seen:
            named = ", ".join(f"{k}={item.get(k)!r}" for k in keys)
            yield ValidationError(f"two items have the same {named} (a list-map key)")
        seen.add(key)


_Validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    Draft4Validator,
    validators={
        **{k: _skip_unknown(v) for k, v in Draft4Validator.VALIDATORS.items()},
        "x-kubernetes-list-map-keys": _skip_unknown(_list_map_keys),
    },
)


@cache
def _validator(definition: Definition) -> Any:
    return _Validator(json_schema(definition.schema))


def problems(definition: Definition, obj: object) -> list[tuple[Path, str]]:
    """Every place ``obj`` breaks the definition's structural schema, with what is wrong."""
    out: list[tuple[Path, str]] = []
    for error in _validator(definition).iter_errors(obj):
        path: Path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            schema = error.schema if isinstance(error.schema, dict) else {}
            extra = sorted(k for k in error.instance if k not in schema.get("properties", {}))
            path = (*path, extra[0]) if len(extra) == 1 else path
        out.append((path, _message(error)))
    return sorted(out, key=lambda p: (str(p[0]), p[1]))


def _message(error: ValidationError) -> str:
    validator, value, instance = error.validator, error.validator_value, error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    if validator == "additionalProperties" and isinstance(instance, dict):
        allowed = set(schema.get("properties", {}))
        extra = sorted(k for k in instance if k not in allowed)
        return f"unknown field {', '.join(extra)}; the schema has: {', '.join(sorted(allowed))}"
    if validator == "required":
        return str(error.message).replace("'", "`", 2)
    if validator == "enum" and isinstance(value, list):
        return f"{instance!r} is not one of {', '.join(map(str, value))}"
    if validator == "type":
        return f"{instance!r} is not of type {value}"
    text = str(error.message)
    return text if len(text) < 200 else text[:197] + "..."


def with_defaults(value: object, node: Schema) -> object:
    """A copy of ``value`` with the schema's defaults filled in, as the API server does before
    it runs the CEL rules (absent fields only, recursively)."""
    if isinstance(value, dict):
        out = dict(value)
        for name, sub in node.get("properties", {}).items():
            if name not in out and "default" in sub:
                out[name] = copy.deepcopy(sub["default"])
            if name in out:
                out[name] = with_defaults(out[name], sub)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            for name in out:
                if name not in node.get("properties", {}):
                    out[name] = with_defaults(out[name], extra)
        return out
    if isinstance(value, list) and isinstance(node.get("items"), dict):
        return [with_defaults(item, node["items"]) for item in value]
    return value


def count(node: Schema) -> int:
    """How many structural constraints a schema states."""
    total = sum(1 for k in CONSTRAINTS if k in node)
    total += len(node.get("required", []))
    total += 1 if _closed(node) else 0
    for sub in node.get("properties", {}).values():
        total += count(sub)
    for key in ("items", "additionalProperties", "not"):
        if isinstance(node.get(key), dict):
            total += count(node[key])
    for key in ("allOf", "anyOf", "oneOf"):
        total += sum(count(sub) for sub in node.get(key, []))
    return total
