"""Narrowing of decoded JSON (typed ``object``) to the shapes terraform documents."""

from __future__ import annotations

import json
from collections.abc import Mapping

JsonObject = Mapping[str, object]
"""A decoded JSON object; values stay ``object`` until a getter below narrows them."""

_EMPTY: JsonObject = {}


def loads(text: str) -> object:
    """Decode one JSON document.

    Raises:
        ValueError: The text is not JSON (``json.JSONDecodeError`` is a ValueError).
    """
    return json.loads(text)


def as_object(value: object) -> JsonObject:
    """The value as a JSON object, or an empty one when it is anything else."""
    # Terraform promises forward compatibility by adding keys only, so a wrong shape is treated
    # like an absent value instead of failing the whole run.
    if isinstance(value, dict):
        return value
    return _EMPTY


def get_object(mapping: JsonObject, key: str) -> JsonObject:
    """``mapping[key]`` as a JSON object (empty when absent or not an object)."""
    return as_object(mapping.get(key))


def get_list(mapping: JsonObject, key: str) -> list[object]:
    """``mapping[key]`` as a list (empty when absent or not a list)."""
    value = mapping.get(key)
    return list(value) if isinstance(value, list) else []


def get_str(mapping: JsonObject, key: str, default: str = "") -> str:
    """``mapping[key]`` as a string, or ``default`` when absent or not a string."""
    value = mapping.get(key)
    return value if isinstance(value, str) else default


def get_opt_str(mapping: JsonObject, key: str) -> str | None:
    """``mapping[key]`` as a string, or None; empty strings count as absent."""
    value = mapping.get(key)
    return value if isinstance(value, str) and value else None


def get_int(mapping: JsonObject, key: str) -> int | None:
    """``mapping[key]`` as an int, or None (booleans are not integers here)."""
    value = mapping.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def get_bool(mapping: JsonObject, key: str) -> bool:
    """``mapping[key]`` when it is a boolean, else False."""
    return mapping.get(key) is True


def key_value(value: object) -> str | int | None:
    """A resource instance key: an int for ``count``, a string for ``for_each``, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | str):
        return value
    return None
