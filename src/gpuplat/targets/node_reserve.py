"""The shape of a node reservation, shared by the clouds' own formulas (gke_node, eks_node)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Reserve:
    """CPU (millicores) and memory (MiB) kept from pods."""

    cpu_millis: int
    memory_mib: int


def tiers(amount: float, bands: Sequence[tuple[float, float]], rest: float) -> float:
    """``amount`` reserved by bands: each (size, fraction) in turn, then ``rest`` of what is left."""
    total = 0.0
    left = amount
    for size, fraction in bands:
        part = min(left, size)
        total += part * fraction
        left -= part
    return total + max(left, 0.0) * rest
