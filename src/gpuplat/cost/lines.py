"""The lines of a cluster's bill beside its nodes and fee, priced from the catalog.

- Boot disks: every node of every pool has one, by the pool's disk type and size (the type the
  target renders when none is given); a disk lives as long as its node, so a level's disks
  are its nodes' disks. System pools use the cluster modules' default disk.
- NAT gateways and their public addresses, as many as the target renders (EKS in a VPC
  gpuplat creates: one a zone in protected environments, else one; GKE: one Cloud NAT for
  private nodes with ``cloud_nat``, billed per VM using it up to its cap).
- An egress load balancer and its address where the target sends egress through one (AKS).
- Public IPv4 of nodes that hold one each (GKE without ``private_nodes``).

What each cloud renders is its target's (targets/billing.py); the prices are the catalog's.
What depends on traffic (NAT and load balancer processing per GB, egress) is named, not
counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gpuplat import catalog
from gpuplat.catalog.billing import DiskPrice, NetworkPrice
from gpuplat.cost.money import HOURS_PER_MONTH, Amount
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets import target


@dataclass(frozen=True, slots=True)
class BillLine:
    """One line of the bill beside nodes and fee, at the three levels, with its price's origin."""

    name: str
    unit: str
    """The price it is counted at, for people (``0.17 $/GB-month x 1000 GB per node``)."""
    floor: Amount
    expected: Amount
    ceiling: Amount
    source: str | None
    as_of: str | None
    unverified: bool = False
    note: str | None = None

    def at(self, level: str) -> Amount:
        return {"floor": self.floor, "expected": self.expected, "ceiling": self.ceiling}[level]


@dataclass(frozen=True, slots=True)
class Counts:
    """Nodes of one pool at the three levels."""

    pool: NodePool | None
    """None: the system pool."""
    floor: int
    expected: int
    ceiling: int


def _line(
    name: str,
    unit: str,
    levels: tuple[Amount, Amount, Amount],
    price: DiskPrice | NetworkPrice,
    *,
    unverified: bool | None = None,
    note: str | None = None,
) -> BillLine:
    """A bill line at floor, expected and ceiling, carrying its price's origin."""
    return BillLine(
        name,
        unit,
        *levels,
        price.source,
        price.as_of,
        price.unverified if unverified is None else unverified,
        price.note if note is None else note,
    )


def _per_node(hourly: float, counts: Counts) -> tuple[Amount, Amount, Amount]:
    """What a per-node price comes to at the pool's three node counts."""
    return (
        Amount(hourly * counts.floor),
        Amount(hourly * counts.expected),
        Amount(hourly * counts.ceiling),
    )


def cluster_lines(
    cluster: Cluster, protected: bool, counts: Sequence[Counts]
) -> tuple[tuple[BillLine, ...], tuple[str, ...]]:
    """The priced lines of one cluster and what stays named, not counted.

    Args:
        cluster: The cluster.
        protected: Its environment is prod-like (EKS then has a NAT gateway per zone).
        counts: Node counts of every pool (the system pool with ``pool`` None).

    Returns:
        (lines, not counted).
    """
    lines = [_disks(cluster, c) for c in counts]
    ssds = [_local_ssds(cluster, c) for c in counts]
    missing = [
        f"boot disks of {n}" for n, line in zip(_names(counts), lines, strict=True) if line is None
    ]
    out = [line for line in lines if line is not None]
    out.extend(line for line in ssds if line is not None)
    not_counted = [*missing]
    nat = _nat(cluster, protected, counts)
    if nat is not None:
        out.extend(nat)
    lb = _load_balancer(cluster)
    out.extend(lb)
    ips = _node_ips(cluster, counts)
    if ips is not None:
        out.append(ips)
    per_gb = [
        f"{p.item.replace('_', ' ')} data processing at {p.usd_per_gb:g} $/GB"
        for p in (catalog.network_price(cluster.cloud, i) for i in ("nat_gateway", "load_balancer"))
        if p is not None and p.usd_per_gb is not None and _renders(cluster, protected, p.item)
    ]
    cloud = target(cluster.cloud)
    if not (
        cloud.nat_gateways(cluster, protected)
        or cloud.egress_load_balancer
        or cloud.public_node_addresses(cluster)
    ):
        not_counted.append("NAT of the network you gave (gpuplat does not create it)")
    not_counted.append(
        "traffic: "
        + ", ".join([*per_gb, "egress to the internet and between zones"])
        + " (usage-dependent)"
    )
    return tuple(out), tuple(not_counted)


def _names(counts: Sequence[Counts]) -> list[str]:
    return [c.pool.name if c.pool is not None else "the system pool" for c in counts]


def disk_type(cluster: Cluster, pool: NodePool | None) -> tuple[int, str]:
    """(size GB, type) of a pool's boot disk as gpuplat renders it (``None``: the system pool)."""
    cloud = target(cluster.cloud)
    return cloud.system_disk if pool is None else cloud.boot_disk(pool)


def disk_hourly(cloud: str, size_gb: int, kind: str) -> tuple[float, str] | None:
    """What one disk costs an hour, and how, or None when the type has no price."""
    price = catalog.disk_price(cloud, kind)  # type: ignore[arg-type]
    if price is None:
        return None
    if price.tiers:
        tier = next((t for t in price.tiers if size_gb <= t.up_to_gb), None)
        if tier is None:
            return None
        return tier.usd_per_month / HOURS_PER_MONTH, f"{tier.name} {tier.usd_per_month:g} $/month"
    assert price.usd_per_gb_month is not None
    per_gb = price.usd_per_gb_month
    return per_gb * size_gb / HOURS_PER_MONTH, f"{per_gb:g} $/GB-month x {size_gb} GB"


def _disks(cluster: Cluster, counts: Counts) -> BillLine | None:
    size, kind = disk_type(cluster, counts.pool)
    priced = disk_hourly(cluster.cloud, size, kind)
    price = catalog.disk_price(cluster.cloud, kind)
    if priced is None or price is None:
        return None
    hourly, how = priced
    name = counts.pool.name if counts.pool is not None else "system pool"
    return _line(
        f"boot disks {name} ({size} GB {kind})", f"{how} per node", _per_node(hourly, counts), price
    )


def _local_ssds(cluster: Cluster, counts: Counts) -> BillLine | None:
    found = None if counts.pool is None else target(cluster.cloud).local_ssds(counts.pool)
    price = catalog.disk_price(cluster.cloud, "local-ssd")
    if found is None or counts.pool is None or price is None:
        return None
    count, size, bundled = found
    name = f"local SSDs {counts.pool.name} ({count} x {size} GB)"
    if bundled:
        name = f"local SSDs {counts.pool.name} ({count} x {size} GB, in the machine's price)"
        zero = Amount()
        return _line(
            name,
            "in the machine's price",
            (zero, zero, zero),
            price,
            unverified=False,
            note=f"{counts.pool.machine_type} comes with them",
        )
    assert price.usd_per_gb_month is not None
    hourly = price.usd_per_gb_month * size * count / HOURS_PER_MONTH
    return _line(
        name,
        f"{price.usd_per_gb_month:g} $/GB-month x {count * size} GB per node",
        _per_node(hourly, counts),
        price,
    )


def _renders(cluster: Cluster, protected: bool, item: str) -> bool:
    cloud = target(cluster.cloud)
    if item == "nat_gateway":
        return cloud.nat_gateways(cluster, protected) > 0
    return item == "load_balancer" and cloud.egress_load_balancer


def _nat(cluster: Cluster, protected: bool, counts: Sequence[Counts]) -> list[BillLine] | None:
    gateways = target(cluster.cloud).nat_gateways(cluster, protected)
    nat = catalog.network_price(cluster.cloud, "nat_gateway")
    ip = catalog.network_price(cluster.cloud, "public_ipv4")
    if gateways == 0 or nat is None or ip is None:
        return None
    if nat.usd_per_vm_hour is not None:
        # Cloud NAT: per VM using the gateway, up to its cap.
        most = nat.most_per_hour if nat.most_per_hour is not None else math.inf
        per_vm = nat.usd_per_vm_hour
        low, mid, high = (
            Amount(min(per_vm * sum(getattr(c, level) for c in counts), most))
            for level in ("floor", "expected", "ceiling")
        )
        unit = f"{nat.usd_per_vm_hour:g} $/h per VM, at most {nat.most_per_hour:g} $/h"
    else:
        assert nat.usd_per_hour is not None
        low = mid = high = Amount(nat.usd_per_hour * gateways)
        unit = f"{nat.usd_per_hour:g} $/h each"
    assert ip.usd_per_hour is not None
    address = Amount(ip.usd_per_hour * gateways)
    return [
        _line(f"NAT gateways ({gateways})", unit, (low, mid, high), nat),
        _line(
            f"NAT public IPv4 ({gateways})",
            f"{ip.usd_per_hour:g} $/h each",
            (address, address, address),
            ip,
        ),
    ]


def _load_balancer(cluster: Cluster) -> list[BillLine]:
    if not target(cluster.cloud).egress_load_balancer:
        return []
    out = []
    for item, name in (("load_balancer", "outbound load balancer"), ("public_ipv4", "its IPv4")):
        price = catalog.network_price(cluster.cloud, item)
        if price is None or price.usd_per_hour is None:
            continue
        hourly = Amount(price.usd_per_hour)
        out.append(
            _line(f"{name} (1)", f"{price.usd_per_hour:g} $/h", (hourly, hourly, hourly), price)
        )
    return out


def _node_ips(cluster: Cluster, counts: Sequence[Counts]) -> BillLine | None:
    if not target(cluster.cloud).public_node_addresses(cluster):
        return None
    ip = catalog.network_price(cluster.cloud, "public_ipv4")
    if ip is None or ip.usd_per_hour is None:
        return None
    per = ip.usd_per_hour
    low, mid, high = (
        Amount(per * sum(getattr(c, lv) for c in counts)) for lv in ("floor", "expected", "ceiling")
    )
    return _line(
        "node public IPv4",
        f"{per:g} $/h per node",
        (low, mid, high),
        ip,
        note="nodes without private_nodes get an external address each",
    )
