"""The lines of a cluster's bill beside its nodes and fee, priced from the catalog.

- Boot disks: every node of every pool has one, by the pool's disk type and size (the type
  gpuplat renders when none is given: GKE pd-balanced, or hyperdisk-balanced on Hyperdisk-only
  series; EKS gp3; AKS Managed). A disk lives as long as its node, so a level's disks are its
  nodes' disks. System pools use the modules' defaults (templates/modules/*-cluster/
  variables.tf.j2: GKE 100 GB pd-balanced, EKS 50 GB gp3, AKS 128 GB Managed).
- NAT: EKS, in a VPC gpuplat creates, one NAT gateway per zone in protected environments,
  else one (targets/eks/infra.py), each with an Elastic IP; GKE with private nodes and
  ``cloud_nat`` one Cloud NAT gateway billed per VM using it (up to 32) and one external IP
  (``AUTO_ONLY`` allocates at least one). AKS sends egress through its load balancer.
- Load balancer: AKS's Standard load balancer for outbound traffic (``outbound_type =
  loadBalancer``) and its public IP. gpuplat renders no other load balancer (the model
  server's Service is ClusterIP).
- Public IPv4: GKE nodes without ``private_nodes`` get an external address each.

What depends on traffic (NAT and load balancer processing per GB, egress) is named, not
counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gpuplat import catalog
from gpuplat.cost.money import HOURS_PER_MONTH, Amount
from gpuplat.spec.model import Cluster, NodePool

SYSTEM_DISK = {"gke": (100, "pd-balanced"), "eks": (50, "gp3"), "aks": (128, "Managed")}
"""The system pool's boot disk as the cluster modules render it by default (size GB, type)."""
HYPERDISK_ONLY = ("a3-ultragpu", "a4-", "a4x-", "g4-")
"""GCE series whose boot disk gpuplat makes hyperdisk-balanced when no type is given
(targets/gke/infra.py)."""


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
    missing = [
        f"boot disks of {n}" for n, line in zip(_names(counts), lines, strict=True) if line is None
    ]
    out = [line for line in lines if line is not None]
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
    if cluster.cloud == "eks" and cluster.network.vpc_cidr is None:
        not_counted.append("NAT gateways of the VPC you gave (gpuplat does not create them)")
    not_counted.append(
        "traffic: "
        + ", ".join([*per_gb, "egress to the internet and between zones"])
        + " (usage-dependent)"
    )
    return tuple(out), tuple(not_counted)


def _names(counts: Sequence[Counts]) -> list[str]:
    return [c.pool.name if c.pool is not None else "the system pool" for c in counts]


def disk_type(cluster: Cluster, pool: NodePool | None) -> tuple[int, str]:
    """(size GB, type) of a pool's boot disk as gpuplat renders it."""
    if pool is None:
        return SYSTEM_DISK[cluster.cloud]
    if pool.disk.type is not None:
        return pool.disk.size_gb, pool.disk.type
    if cluster.cloud == "gke":
        hyper = pool.machine_type.startswith(HYPERDISK_ONLY)
        return pool.disk.size_gb, "hyperdisk-balanced" if hyper else "pd-balanced"
    return pool.disk.size_gb, SYSTEM_DISK[cluster.cloud][1]


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
    return BillLine(
        f"boot disks {name} ({size} GB {kind})",
        f"{how} per node",
        Amount(hourly * counts.floor),
        Amount(hourly * counts.expected),
        Amount(hourly * counts.ceiling),
        price.source,
        price.as_of,
        price.unverified,
        price.note,
    )


def _renders(cluster: Cluster, protected: bool, item: str) -> bool:
    if item == "nat_gateway":
        return _nat_gateways(cluster, protected) > 0
    return item == "load_balancer" and cluster.cloud == "aks"


def _nat_gateways(cluster: Cluster, protected: bool) -> int:
    if cluster.cloud == "eks" and cluster.network.vpc_cidr is not None:
        return max(1, len(cluster.zones)) if protected else 1
    if cluster.cloud == "gke" and cluster.network.private_nodes and cluster.network.cloud_nat:
        return 1
    return 0


def _nat(cluster: Cluster, protected: bool, counts: Sequence[Counts]) -> list[BillLine] | None:
    gateways = _nat_gateways(cluster, protected)
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
        BillLine(
            f"NAT gateways ({gateways})",
            unit,
            low,
            mid,
            high,
            nat.source,
            nat.as_of,
            nat.unverified,
            nat.note,
        ),
        BillLine(
            f"NAT public IPv4 ({gateways})",
            f"{ip.usd_per_hour:g} $/h each",
            address,
            address,
            address,
            ip.source,
            ip.as_of,
            ip.unverified,
            ip.note,
        ),
    ]


def _load_balancer(cluster: Cluster) -> list[BillLine]:
    if cluster.cloud != "aks":
        return []
    out = []
    for item, name in (("load_balancer", "outbound load balancer"), ("public_ipv4", "its IPv4")):
        price = catalog.network_price(cluster.cloud, item)
        if price is None or price.usd_per_hour is None:
            continue
        hourly = Amount(price.usd_per_hour)
        out.append(
            BillLine(
                f"{name} (1)",
                f"{price.usd_per_hour:g} $/h",
                hourly,
                hourly,
                hourly,
                price.source,
                price.as_of,
                price.unverified,
                price.note,
            )
        )
    return out


def _node_ips(cluster: Cluster, counts: Sequence[Counts]) -> BillLine | None:
    if cluster.cloud != "gke" or cluster.network.private_nodes:
        return None
    ip = catalog.network_price("gke", "public_ipv4")
    if ip is None or ip.usd_per_hour is None:
        return None
    per = ip.usd_per_hour
    low, mid, high = (
        Amount(per * sum(getattr(c, lv) for c in counts)) for lv in ("floor", "expected", "ceiling")
    )
    return BillLine(
        "node public IPv4",
        f"{per:g} $/h per node",
        low,
        mid,
        high,
        ip.source,
        ip.as_of,
        ip.unverified,
        "nodes without private_nodes get an external address each",
    )
