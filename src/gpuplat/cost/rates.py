"""What one node of a pool costs per hour, by capacity type, and what a cluster's fee is.

:func:`pool_rungs` is the one place the cost model asks for a pool's capacity and per-node
price. It returns a tuple of rungs — today one, the pool's capacity type — so that a pool that
falls back through several capacity types (each with its own price) is the same question with a
longer answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gpuplat import catalog
from gpuplat.catalog import Cloud, Price
from gpuplat.spec.model import Cluster, NodePool

CAPACITY_LABELS = ("on-demand", "spot", "reservation", "capacity-block", "flex-start", "queued")
"""Capacity types as the cost report names them (an EKS reservation block is a capacity-block)."""


@dataclass(frozen=True, slots=True)
class Rate:
    """The hourly price of one node (or one cluster) under one capacity type.

    ``usd_per_hour`` is None when the price is not known; ``unknown`` then says why.
    """

    capacity: str
    usd_per_hour: float | None
    source: str | None = None
    as_of: str | None = None
    region: str | None = None
    unverified: bool = False
    unknown: str | None = None
    note: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "capacity": self.capacity,
            "usd_per_hour": self.usd_per_hour,
            "source": self.source,
            "as_of": self.as_of,
            "region": self.region,
            "unverified": self.unverified,
            "unknown": self.unknown,
            "note": self.note,
        }


def capacity_label(cluster: Cluster, pool: NodePool) -> str:
    """The capacity type of a pool as the cost report names it."""
    capacity = pool.capacity
    if capacity.type == "reservation" and capacity.block:
        return "capacity-block"
    return capacity.type


def pool_rungs(cluster: Cluster, pool: NodePool) -> tuple[Rate, ...]:
    """The capacity rungs a pool's nodes come from, each with its per-node price, in order.

    Args:
        cluster: The cluster that holds the pool (cloud and region).
        pool: The node pool.

    Returns:
        One rate per rung, preferred first (today: the pool's one capacity type).
    """
    attached = None
    if cluster.cloud == "gke" and pool.accelerator and pool.gpus_per_node:
        attached = (pool.accelerator, pool.gpus_per_node)
    rate = shape_rate(
        cluster.cloud, pool.machine_type, capacity_label(cluster, pool), cluster.region, attached
    )
    return (rate,)


def shape_rate(
    cloud: Cloud,
    machine_type: str,
    capacity: str,
    region: str | None,
    attached: tuple[str, int] | None = None,
) -> Rate:
    """The hourly price of one node of a shape under a capacity type.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.
        machine_type: Machine shape name.
        capacity: A :data:`CAPACITY_LABELS` value.
        region: The region the node runs in (None: the catalog's region).
        attached: For GCE N1 hosts: (accelerator, count) of the GPUs attached to each node.

    Returns:
        The rate; its ``usd_per_hour`` is None, with the reason, when unknown.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    billing = catalog.capacity_billing(cloud, capacity)
    if billing is None:
        return Rate(capacity, None, unknown=f"the catalog has no {capacity} pricing for {cloud}")
    if billing.basis == "unknown":
        return Rate(
            capacity, None, billing.source, billing.as_of, unknown=f"{capacity}: {billing.unknown}"
        )
    price, missing = _shape_price(cloud, machine_type, billing.basis)
    if price is None:
        return Rate(capacity, None, unknown=missing)
    usd = price.usd_per_hour
    unverified = price.unverified
    notes = [n for n in (price.note, billing.note) if n]
    shape = catalog.shape(cloud, machine_type)
    if attached is not None and shape is not None and shape.gpu_model is None:
        gpu_price = _attached_price(attached[0], billing.basis)
        if gpu_price is None:
            what = f"no {billing.basis.replace('_', '-')} price for GPU {attached[0]}"
            return Rate(capacity, None, unknown=f"{what} in the catalog")
        usd += gpu_price.usd_per_hour * attached[1]
        unverified = unverified or gpu_price.unverified
        notes.append(f"host plus {attached[1]} x {attached[0]}")
    rate = Rate(capacity, usd, price.source, price.as_of, price.region, unverified)
    if region is not None and region != price.region:
        # The catalog holds one reference region per cloud: another region's price differs, but
        # by a few percent, not by the 0 an unknown would suggest. Say so instead of hiding it.
        notes.append(f"list price of {price.region}; {region} is not in the catalog")
        rate = replace(rate, unverified=True)
    return replace(rate, note="; ".join(notes) or None)


def _shape_price(cloud: Cloud, machine_type: str, basis: str) -> tuple[Price | None, str]:
    shape = catalog.shape(cloud, machine_type)
    system = catalog.system_shape(cloud, machine_type)
    word = basis.replace("_", "-")
    if shape is not None:
        if basis == "on_demand" and shape.on_demand_available is False:
            return None, f"{machine_type} is not sold on-demand"
        price = shape.price_on_demand if basis == "on_demand" else shape.price_spot
        if price is None:
            return None, f"no {word} price for {machine_type} in the catalog{_gap(cloud, basis)}"
        return price, ""
    if system is not None:
        price = system.price_on_demand if basis == "on_demand" else system.price_spot
        if price is None:
            return None, f"no {word} price for {machine_type}: {system.unknown or 'not recorded'}"
        return price, ""
    return None, f"{machine_type} is not in the catalog"


def _gap(cloud: Cloud, basis: str) -> str:
    if cloud == "eks" and basis == "spot":
        return " (EC2 spot prices were sampled for four instance types only)"
    return ""


def _attached_price(accelerator: str, basis: str) -> Price | None:
    acc = catalog.gke_accelerator(accelerator)
    if acc is None:
        return None
    return acc.price_on_demand_per_gpu if basis == "on_demand" else acc.price_spot_per_gpu


def system_rate(cluster: Cluster) -> tuple[str, Rate]:
    """The system pool's machine type and the on-demand price of one of its nodes."""
    name = cluster.system_pool.machine_type
    if name is None:
        default = catalog.system_shape(cluster.cloud)
        name = default.name if default is not None else "?"
    return name, shape_rate(cluster.cloud, name, "on-demand", cluster.region)


def cluster_fee_rate(cloud: Cloud) -> Rate:
    """The hourly control-plane fee of a cluster in the tier gpuplat renders it with."""
    fee = catalog.cluster_fee(cloud)
    if fee is None:
        return Rate("fee", None, unknown=f"no {cloud} cluster fee in the catalog")
    return Rate(
        "fee",
        fee.usd_per_hour,
        fee.source,
        fee.as_of,
        None,
        fee.unverified,
        f"{cloud} {fee.tier} tier: {fee.unknown}" if fee.unknown else None,
        f"{fee.tier} tier" + (f"; {fee.note}" if fee.note else ""),
    )
