"""Bill lines beside nodes and fees: boot disk prices by type, and network pieces by cloud.

Read from ``data/billing.yaml``. A disk is priced per GB-month, or (AKS Managed) by the tier its
size rounds up to; a network piece per hour, per VM-hour up to a cap, and per GB processed
(the last is usage, which gpuplat names but does not count).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from pydantic import model_validator

from gpuplat.catalog.files import CatalogDataError, known_cloud, parse
from gpuplat.catalog.model import AsOf, Cloud, Flag, Int, Num, Record, Text


class DiskTier(Record):
    """A disk size tier billed per month whatever part of it is used (Azure Premium SSD)."""

    name: Text
    up_to_gb: Int
    usd_per_month: Num


class DiskPrice(Record):
    """The price of a boot disk type in one cloud's reference region."""

    cloud: Cloud
    type: Text
    region: Text
    source: Text
    as_of: AsOf
    usd_per_gb_month: Num | None = None
    tiers: tuple[DiskTier, ...] = ()
    free: Flag = False
    unverified: Flag = False
    note: Text | None = None

    @model_validator(mode="after")
    def _priced_one_way(self) -> DiskPrice:
        if (self.usd_per_gb_month is None) == (not self.tiers):
            raise ValueError(f"disk {self.type}: give usd_per_gb_month or tiers, one of them")
        if self.usd_per_gb_month == 0 and not self.free:
            raise ValueError(f"disk {self.type}: a zero price needs `free: true`")
        return self


class NetworkPrice(Record):
    """The price of one network piece (a NAT gateway, a load balancer, a public IPv4)."""

    cloud: Cloud
    item: Text
    region: Text
    source: Text
    as_of: AsOf
    usd_per_hour: Num | None = None
    usd_per_vm_hour: Num | None = None
    most_per_hour: Num | None = None
    usd_per_gb: Num | None = None
    unverified: Flag = False
    note: Text | None = None

    @model_validator(mode="after")
    def _priced(self) -> NetworkPrice:
        if self.usd_per_hour is None and self.usd_per_vm_hour is None:
            raise ValueError(f"{self.cloud} {self.item}: no hourly price")
        return self


class BillingFile(Record):
    disks: list[DiskPrice]
    network: list[NetworkPrice]


@functools.cache
def _billing() -> tuple[
    Mapping[tuple[str, str], DiskPrice], Mapping[tuple[str, str], NetworkPrice]
]:
    found = parse("billing", BillingFile)
    disks: dict[tuple[str, str], DiskPrice] = {}
    for disk in found.disks:
        if (disk.cloud, disk.type) in disks:
            raise CatalogDataError(f"billing.yaml: duplicate disk {disk.cloud} {disk.type}")
        disks[(disk.cloud, disk.type)] = disk
    network: dict[tuple[str, str], NetworkPrice] = {}
    for piece in found.network:
        if (piece.cloud, piece.item) in network:
            raise CatalogDataError(f"billing.yaml: duplicate {piece.cloud} {piece.item}")
        network[(piece.cloud, piece.item)] = piece
    return MappingProxyType(disks), MappingProxyType(network)


def disk_price(cloud: Cloud, disk_type: str) -> DiskPrice | None:
    """The price of a boot disk type, or None when the catalog has none.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return _billing()[0].get((known_cloud(cloud), disk_type))


def network_price(cloud: Cloud, item: str) -> NetworkPrice | None:
    """The price of a network piece (``nat_gateway``, ``load_balancer``, ``public_ipv4``).

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return _billing()[1].get((known_cloud(cloud), item))
