"""The shape of a node reservation, shared by the clouds' own formulas (targets/<cloud>/node.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Reserve:
    """CPU (millicores) and memory (MiB) kept from pods."""

    cpu_millis: int
    memory_mib: int


@dataclass(frozen=True)
class EphemeralDisk:
    """What holds a node's ephemeral storage, and what of it the node keeps from pods."""

    label: str
    """For people: "a 500 GB boot disk", "16 local SSDs (6000 GB)"."""
    size_gb: int
    reserve_gb: float

    @property
    def allocatable_gb(self) -> float:
        return self.size_gb - self.reserve_gb

    @classmethod
    def boot(cls, size_gb: int, reserve_gb: float) -> EphemeralDisk:
        return cls(f"a {size_gb} GB boot disk", size_gb, reserve_gb)


def tiers(amount: float, bands: Sequence[tuple[float, float]], rest: float) -> float:
    """``amount`` reserved by bands: each (size, fraction) in turn, then ``rest`` of what is left."""
    total = 0.0
    left = amount
    for size, fraction in bands:
        part = min(left, size)
        total += part * fraction
        left -= part
    return total + max(left, 0.0) * rest
