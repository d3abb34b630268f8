"""Catalog name spaces: unknown-name errors and "did you mean" suggestions."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Literal, get_args

from gpuplat.catalog.files import (
    accelerator_table,
    chart_table,
    floor_table,
    gpu_table,
    known_cloud,
    limit_table,
    shape_table,
    source_table,
)

Kind = Literal[
    "gpu_model",
    "gke_accelerator",
    "gke_shape",
    "eks_shape",
    "aks_shape",
    "chart",
    "feature_floor",
    "feature_limit",
    "source",
]
"""Name spaces that :func:`close_matches` can search."""


class UnknownNameError(KeyError):
    """A name is not in the catalog; ``suggestions`` holds close matches."""

    def __init__(self, kind: str, name: str, suggestions: list[str]) -> None:
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.kind = kind
        self.name = name
        self.suggestions = suggestions

    def __str__(self) -> str:
        return str(self.args[0])


def _names(kind: Kind) -> Iterable[str]:
    if kind == "gpu_model":
        return gpu_table().keys()
    if kind == "gke_accelerator":
        return accelerator_table().keys()
    if kind in ("gke_shape", "eks_shape", "aks_shape"):
        return shape_table(known_cloud(kind.split("_", 1)[0])).keys()
    if kind == "chart":
        return chart_table().keys()
    if kind == "feature_floor":
        return floor_table().keys()
    if kind == "feature_limit":
        return limit_table().keys()
    if kind == "source":
        return source_table()[1].keys()
    raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(get_args(Kind))}")


def close_matches(kind: Kind, name: str) -> list[str]:
    """Suggest catalog names close to an unknown one, for "did you mean" hints.

    Matching ignores case; names that start with ``name`` come first, so ``l4`` suggests
    ``L4`` and ``h100`` suggests ``H100-80GB``.

    Args:
        kind: Which names to search: ``gpu_model``, ``gke_accelerator``, ``gke_shape``,
            ``eks_shape``, ``aks_shape``, ``chart``, ``feature_floor``, ``feature_limit``
            or ``source``.
        name: The name that was not found.

    Returns:
        Up to three catalog names, best first; empty when nothing is close.

    Raises:
        ValueError: ``kind`` is not one of the kinds above.
    """
    by_lower: dict[str, str] = {}
    for candidate in _names(kind):
        by_lower.setdefault(candidate.lower(), candidate)
    wanted = name.lower()
    prefixed = sorted((c for c in by_lower if wanted and c.startswith(wanted)), key=len)
    close = difflib.get_close_matches(wanted, list(by_lower), n=3, cutoff=0.6)
    return list(dict.fromkeys(by_lower[c] for c in [*prefixed, *close]))[:3]
