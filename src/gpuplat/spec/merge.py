"""Deep merge of an environment overlay onto the base spec, keeping every value's origin.

Mappings merge key by key; lists whose items are all mappings with a ``name`` merge item by item
on that name (new names are appended); any other value in the overlay replaces the base value.
Because nodes carry their own marks, a value that came from ``envs/prod.yaml`` is still reported
there after the merge.
"""

from __future__ import annotations

from gpuplat.spec.source import Node


def merge(base: Node, overlay: Node) -> Node:
    """Return a new tree: ``base`` with ``overlay`` merged onto it. Inputs are not modified."""
    if isinstance(base.value, dict) and isinstance(overlay.value, dict):
        merged = dict(base.value)
        for key, child in overlay.value.items():
            merged[key] = merge(base.value[key], child) if key in base.value else child
        return Node(merged, base.mark, base.key_mark)
    if isinstance(base.value, list) and isinstance(overlay.value, list):
        base_names = _names(base.value)
        over_names = _names(overlay.value)
        if base_names is not None and over_names is not None:
            return _merge_named(base, overlay, base_names, over_names)
    return Node(
        overlay.value, overlay.mark, overlay.key_mark or base.key_mark, overlay.raw, overlay.quoted
    )


def _names(items: list[Node]) -> list[str] | None:
    """The ``name`` of every item, or None when the list is not a list of named mappings."""
    names: list[str] = []
    for item in items:
        if not isinstance(item.value, dict):
            return None
        name = item.value.get("name")
        if name is None or not isinstance(name.value, str):
            return None
        names.append(name.value)
    return names


def _merge_named(base: Node, overlay: Node, base_names: list[str], over_names: list[str]) -> Node:
    assert isinstance(base.value, list) and isinstance(overlay.value, list)
    by_name = dict(zip(over_names, overlay.value, strict=True))
    out = [
        merge(item, by_name[name]) if name in by_name else item
        for name, item in zip(base_names, base.value, strict=True)
    ]
    known = set(base_names)
    out.extend(
        item for name, item in zip(over_names, overlay.value, strict=True) if name not in known
    )
    return Node(out, base.mark, overlay.key_mark or base.key_mark)
