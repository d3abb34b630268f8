"""A mistyped cluster, pool or workload name in an overlay, said as such.

An overlay changes the named items of gpuplat.yaml by name; a name gpuplat.yaml does not have
adds a new item. A typo ("inference-use2") therefore used to become a new, incomplete cluster
reported as "cloud is missing". A new item that lacks required keys and whose name is close to
one of gpuplat.yaml is now reported once, at its name: not in gpuplat.yaml, did you mean …. A new item that has every required
key is still added: that is how an overlay adds one, explicitly.
"""

from __future__ import annotations

import difflib

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.source import Node

SPEC_FILE = "gpuplat.yaml"
_LISTS = {"clusters": "cluster", "workloads": "workload"}
_MISSING = "required key "


def _named(node: Node | None) -> list[str]:
    if node is None or not isinstance(node.value, list):
        return []
    out = []
    for item in node.value:
        name = item.value.get("name") if isinstance(item.value, dict) else None
        out.append(str(name.value) if name is not None else "")
    return out


def _get(node: Node, key: str) -> Node | None:
    return node.value.get(key) if isinstance(node.value, dict) else None


def _new_items(base: Node, merged: Node) -> list[tuple[KeyPath, str, list[str]]]:
    """Where the merged tree holds items gpuplat.yaml does not: (path, kind, base names)."""
    found: list[tuple[KeyPath, str, list[str]]] = []
    for key, kind in _LISTS.items():
        known = _named(_get(base, key))
        merged_names = _named(_get(merged, key))
        found += [((key, i), kind, known) for i in range(len(known), len(merged_names))]
    base_clusters = _get(base, "clusters")
    merged_clusters = _get(merged, "clusters")
    if base_clusters is None or merged_clusters is None:
        return found
    assert isinstance(base_clusters.value, list) and isinstance(merged_clusters.value, list)
    for i, cluster in enumerate(base_clusters.value):
        if i >= len(merged_clusters.value):
            break
        known = _named(_get(cluster, "node_pools"))
        now = _named(_get(merged_clusters.value[i], "node_pools"))
        found += [
            (("clusters", i, "node_pools", j), "node pool", known)
            for j in range(len(known), len(now))
        ]
    return found


def misnamed(
    base: Node, merged: Node, locator: Locator, diags: list[Diagnostic]
) -> list[Diagnostic]:
    """``diags`` with the missing keys of each incomplete new item replaced by one error."""
    out = list(diags)
    for path, kind, known in _new_items(base, merged):
        under = [d for d in out if d.path[: len(path)] == path and d.message.startswith(_MISSING)]
        if not under:
            continue
        item, exact = locator.node(path)
        name_node = _get(item, "name") if exact else None
        name = str(name_node.value) if name_node is not None else "?"
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        if not close:  # nothing it could be a typo of: a new item, its missing keys said
            continue
        guess = f'; did you mean "{close[0]}"?'
        missing = sorted({d.message.split('"')[1] for d in under if len(d.path) == len(path) + 1})
        listed = ", ".join(known) or "none"
        hint = (
            f"an overlay changes the {kind}s of {SPEC_FILE} by name ({listed}); to add a new "
            f"{kind} in this environment instead, give it every required key "
            f"({', '.join(missing)})"
        )
        problem = locator.error(
            (*path, "name"), f'{kind} "{name}" is not in {SPEC_FILE}{guess}', hint
        )
        out = [d for d in out if d not in under] + [problem]
    return out
