"""Reading planned resource values (``terraform show -json``) without trusting their shape."""

from __future__ import annotations

from collections.abc import Mapping


def first(values: object, key: str) -> Mapping[str, object]:
    """The first block of a nested block list (``autoscaling[0]``), or an empty mapping."""
    if isinstance(values, Mapping):
        items = values.get(key)
        if isinstance(items, list) and items and isinstance(items[0], Mapping):
            return items[0]
    return {}


def number(values: Mapping[str, object], *keys: str) -> int | None:
    """The first of ``keys`` that holds a number, as an int."""
    for key in keys:
        value = values.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return int(value)
    return None
