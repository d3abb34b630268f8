"""Prices beyond a GPU shape's own: cluster fees, capacity-type billing, system-pool shapes.

Read from ``data/pricing.yaml``. A figure that is not known is ``None`` with the reason in
``unknown``; the loader refuses a 0 that is not marked ``free`` and a null without a reason, so a
missing price can never pass for a free one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

from pydantic import Field, model_validator

from gpuplat.catalog.files import CatalogDataError, known_cloud, parse
from gpuplat.catalog.model import AsOf, Cloud, Flag, Int, Num, Price, Record, Sources, Text

Basis = Literal["on_demand", "spot", "unknown"]
"""Which shape price a capacity type is billed at."""


class ClusterFee(Record):
    """The control-plane fee of one cloud's cluster tier, per cluster and hour."""

    cloud: Cloud
    tier: Text
    usd_per_hour: Num | None
    source: Text
    as_of: AsOf
    default: Flag = False
    free: Flag = False
    unknown: Text | None = None
    unverified: Flag = False
    note: Text | None = None

    @model_validator(mode="after")
    def _known_or_said_why(self) -> ClusterFee:
        if self.usd_per_hour is None and self.unknown is None:
            raise ValueError("usd_per_hour is null without `unknown` saying why")
        if self.usd_per_hour is not None and self.usd_per_hour <= 0 and not self.free:
            raise ValueError("a zero price needs `free: true` (unknown is null)")
        return self


class CapacityBilling(Record):
    """How one cloud bills a capacity type: at the shape's on-demand or spot price, or unknown."""

    cloud: Cloud
    type: Text
    basis: Basis
    source: Text
    as_of: AsOf
    unknown: Text | None = None
    note: Text | None = None
    most_of_on_demand: Num | None = None
    """The most this capacity type can cost as a share of on-demand (GCE spot: 0.4, its
    published 60-91 % discount), a bound on a price that moves."""
    most_source: Text | None = None

    @model_validator(mode="after")
    def _unknown_says_why(self) -> CapacityBilling:
        if (self.basis == "unknown") != (self.unknown is not None):
            raise ValueError("capacity basis unknown needs `unknown` (and only it)")
        return self


class SystemShape(Record):
    """A CPU shape that system pools run on, with its prices where known."""

    cloud: Cloud
    name: Text
    vcpus: Int
    memory_gib: Num
    source: Sources
    as_of: AsOf
    default: Flag = False
    price_on_demand: Price | None = Field(None, alias="on_demand")
    price_spot: Price | None = Field(None, alias="spot")
    unknown: Text | None = None

    @model_validator(mode="after")
    def _priced_or_said_why(self) -> SystemShape:
        if self.price_on_demand is None and self.unknown is None:
            raise ValueError(f"system shape {self.name} has no price and no reason")
        return self


class PricingFile(Record):
    cluster_fees: list[ClusterFee]
    capacity: list[CapacityBilling]
    system_shapes: list[SystemShape]

    @model_validator(mode="after")
    def _one_default_fee_per_cloud(self) -> PricingFile:
        for cloud in sorted({fee.cloud for fee in self.cluster_fees}):
            if sum(1 for fee in self.cluster_fees if fee.cloud == cloud and fee.default) != 1:
                raise ValueError(f"{cloud} needs exactly one default cluster fee")
        return self


@functools.cache
def _pricing() -> tuple[
    tuple[ClusterFee, ...],
    Mapping[tuple[str, str], CapacityBilling],
    Mapping[tuple[str, str], SystemShape],
]:
    found = parse("pricing", PricingFile)
    billing: dict[tuple[str, str], CapacityBilling] = {}
    for entry in found.capacity:
        key = (entry.cloud, entry.type)
        if key in billing:
            raise CatalogDataError(f"pricing.yaml: duplicate capacity {key}")
        billing[key] = entry
    systems: dict[tuple[str, str], SystemShape] = {
        (shape.cloud, shape.name): shape for shape in found.system_shapes
    }
    return tuple(found.cluster_fees), MappingProxyType(billing), MappingProxyType(systems)


def cluster_fees() -> tuple[ClusterFee, ...]:
    """Return every cluster fee in catalog order.

    Returns:
        All cluster fees (every tier of every cloud).
    """
    return _pricing()[0]


def cluster_fee(cloud: Cloud, tier: str | None = None) -> ClusterFee | None:
    """Return the control-plane fee of a cloud's cluster tier.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.
        tier: Tier name (``standard``, ``extended``, ``free``, ...); None for the tier gpuplat's
            rendered clusters get by default.

    Returns:
        The fee, or None when the catalog has no such tier.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    wanted = known_cloud(cloud)
    for fee in _pricing()[0]:
        if fee.cloud == wanted and (fee.tier == tier if tier is not None else fee.default):
            return fee
    return None


def capacity_billing(cloud: Cloud, capacity_type: str) -> CapacityBilling | None:
    """Return how a cloud bills a capacity type.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.
        capacity_type: ``on-demand``, ``spot``, ``reservation``, ``capacity-block``,
            ``flex-start`` or ``queued``.

    Returns:
        The billing rule, or None when the catalog has none for that cloud and type.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return _pricing()[1].get((known_cloud(cloud), capacity_type))


def system_shape(cloud: Cloud, name: str | None = None) -> SystemShape | None:
    """Return a system-pool shape, or the cloud's default one when ``name`` is None.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.
        name: Shape name; None for the default system shape gpuplat renders.

    Returns:
        The shape, or None when the catalog has no such system shape.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    wanted = known_cloud(cloud)
    systems = _pricing()[2]
    if name is not None:
        return systems.get((wanted, name))
    return next((s for s in systems.values() if s.cloud == wanted and s.default), None)
