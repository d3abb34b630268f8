"""Whether changing an argument of a resource makes Terraform replace it (``replacement.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

import yaml

TABLE = Path(__file__).with_name("replacement.yaml")
Effect = Literal["replace", "update", "unknown"]
META = {"count": "instances", "for_each": "instances", "lifecycle": "none", "depends_on": "none"}
"""Meta-arguments: instances come or go; lifecycle and depends_on change no resource."""


@dataclass(frozen=True)
class Rules:
    """One resource type's rules."""

    source: str
    replace: frozenset[str]
    update: frozenset[str]


@cache
def rules() -> dict[str, Rules]:
    """The table, by resource type."""
    data = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    return {
        name: Rules(str(entry["source"]), frozenset(entry["replace"]), frozenset(entry["update"]))
        for name, entry in data.items()
    }


def effect(resource_type: str, path: str) -> Effect:
    """What changing ``path`` (dotted, through nested blocks) of a resource does.

    The longest listed prefix decides. A changed block that holds listed arguments (e.g. the
    whole ``node_config``) forces a replacement when any argument under it would.
    """
    table = rules().get(resource_type)
    if table is None:
        return "unknown"
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in table.replace:
            return "replace"
        if prefix in table.update:
            return "update"
    below = [p for p in table.replace | table.update if p.startswith(path + ".")]
    if any(p in table.replace for p in below):
        return "replace"
    return "update" if below else "unknown"
