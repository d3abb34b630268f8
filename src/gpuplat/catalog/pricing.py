"""Prices beyond a GPU shape's own: cluster fees, capacity-type billing, system-pool shapes.

Read from ``data/pricing.yaml``. A figure that is not known is ``None`` with the reason in
``unknown``; the loader refuses a 0 that is not marked ``free`` and a null without a reason, so a
missing price can never pass for a free one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from gpuplat.catalog.fields import CatalogDataError, _cloud, _Fields, _read
from gpuplat.catalog.model import Cloud, Price
from gpuplat.catalog.tables import _price

Basis = Literal["on_demand", "spot", "unknown"]
"""Which shape price a capacity type is billed at."""


@dataclass(frozen=True, slots=True)
class ClusterFee:
    """The control-plane fee of one cloud's cluster tier, per cluster and hour."""

    cloud: Cloud
    tier: str
    usd_per_hour: float | None
    source: str
    as_of: str
    default: bool = False
    unknown: str | None = None
    unverified: bool = False
    note: str | None = None


@dataclass(frozen=True, slots=True)
class CapacityBilling:
    """How one cloud bills a capacity type: at the shape's on-demand or spot price, or unknown."""

    cloud: Cloud
    type: str
    basis: Basis
    source: str
    as_of: str
    unknown: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class SystemShape:
    """A CPU shape that system pools run on, with its prices where known."""

    cloud: Cloud
    name: str
    vcpus: int
    memory_gib: float
    source: tuple[str, ...]
    as_of: str
    default: bool = False
    price_on_demand: Price | None = None
    price_spot: Price | None = None
    unknown: str | None = None


def _fee(f: _Fields) -> ClusterFee:
    value = f.opt_number("usd_per_hour")
    unknown = f.opt_text("unknown")
    free = f.flag("free")
    where = f"pricing.yaml: cluster fee {f.text('cloud')}/{f.text('tier')}"
    if value is None and unknown is None:
        raise CatalogDataError(f"{where}: usd_per_hour is null without `unknown` saying why")
    if value is not None and value <= 0 and not free:
        raise CatalogDataError(f"{where}: a zero price needs `free: true` (unknown is null)")
    fee = ClusterFee(
        cloud=_cloud(f.text("cloud")),
        tier=f.text("tier"),
        usd_per_hour=value,
        default=f.flag("default"),
        unknown=unknown,
        unverified=f.flag("unverified"),
        note=f.opt_text("note"),
        source=f.text("source"),
        as_of=f.as_of(),
    )
    f.done()
    return fee


def _billing(f: _Fields) -> CapacityBilling:
    basis = f.choice("basis", ("on_demand", "spot", "unknown"))
    unknown = f.opt_text("unknown")
    if (basis == "unknown") != (unknown is not None):
        raise CatalogDataError("pricing.yaml: capacity basis unknown needs `unknown` (and only it)")
    billing = CapacityBilling(
        cloud=_cloud(f.text("cloud")),
        type=f.text("type"),
        basis="on_demand" if basis == "on_demand" else "spot" if basis == "spot" else "unknown",
        unknown=unknown,
        note=f.opt_text("note"),
        source=f.text("source"),
        as_of=f.as_of(),
    )
    f.done()
    return billing


def _system_shape(f: _Fields) -> SystemShape:
    shape = SystemShape(
        cloud=_cloud(f.text("cloud")),
        name=f.text("name"),
        default=f.flag("default"),
        vcpus=f.integer("vcpus"),
        memory_gib=f.number("memory_gib"),
        price_on_demand=_price(f.sub("on_demand")),
        price_spot=_price(f.sub("spot")),
        unknown=f.opt_text("unknown"),
        source=f.sources(),
        as_of=f.as_of(),
    )
    f.done()
    if shape.price_on_demand is None and shape.unknown is None:
        raise CatalogDataError(
            f"pricing.yaml: system shape {shape.name} has no price and no reason"
        )
    return shape


@functools.cache
def _pricing() -> tuple[
    tuple[ClusterFee, ...],
    Mapping[tuple[str, str], CapacityBilling],
    Mapping[tuple[str, str], SystemShape],
]:
    root = _Fields(_read("pricing"), "pricing.yaml")
    fees = tuple(_fee(f) for f in root.items("cluster_fees"))
    billing: dict[tuple[str, str], CapacityBilling] = {}
    for item in root.items("capacity"):
        entry = _billing(item)
        key = (entry.cloud, entry.type)
        if key in billing:
            raise CatalogDataError(f"pricing.yaml: duplicate capacity {key}")
        billing[key] = entry
    systems: dict[tuple[str, str], SystemShape] = {}
    for item in root.items("system_shapes"):
        shape = _system_shape(item)
        systems[(shape.cloud, shape.name)] = shape
    root.done()
    for cloud in {fee.cloud for fee in fees}:
        if sum(1 for fee in fees if fee.cloud == cloud and fee.default) != 1:
            raise CatalogDataError(f"pricing.yaml: {cloud} needs exactly one default cluster fee")
    return fees, MappingProxyType(billing), MappingProxyType(systems)


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
    wanted = _cloud(cloud)
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
    return _pricing()[1].get((_cloud(cloud), capacity_type))


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
    wanted = _cloud(cloud)
    systems = _pricing()[2]
    if name is not None:
        return systems.get((wanted, name))
    return next((s for s in systems.values() if s.cloud == wanted and s.default), None)
