"""What one node of a pool costs per hour, by capacity type, and what a cluster's fee is.

:func:`pool_rungs` is the one place the cost model asks for a pool's capacity and per-node
price. It returns one rate per rung of the pool's capacity ladder (one for a pool of one
capacity type): the floor and expected levels are priced on the preferred rung, the ceiling on
the dearest (cost/estimate.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gpuplat import catalog
from gpuplat.catalog import Cloud, Price
from gpuplat.cost import pricefile
from gpuplat.cost.pricefile import Figure
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets import target

CAPACITY_LABELS = (
    "on-demand",
    "spot",
    "reservation",
    "capacity-block",
    "flex-start",
    "queued",
    "ladder",
)
"""Capacity types as the cost report names them (an EKS reservation block is a capacity-block;
a pool whose nodes come from a capacity ladder is a ladder, priced per rung)."""


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
    """The capacity of a pool as the cost report names it: its one type, or ``ladder``."""
    lad = target(cluster.cloud).ladder(cluster, pool)
    if lad.is_ladder:
        return "ladder"
    return lad.rungs[0].kind or "on-demand"


def pool_rungs(cluster: Cluster, pool: NodePool) -> tuple[Rate, ...]:
    """The capacity rungs a pool's nodes come from, each with its per-node price, in order.

    Args:
        cluster: The cluster that holds the pool (cloud and region).
        pool: The node pool.

    Returns:
        One rate per rung of the pool's capacity ladder, preferred first (one for a pool of one
        capacity type); each priced for its own shape.
    """
    cloud = target(cluster.cloud)
    out = []
    for rung in cloud.ladder(cluster, pool).rungs:
        attached = cloud.attached_gpus(rung.pool)
        kind = rung.kind or "on-demand"
        out.append(
            shape_rate(cluster.cloud, rung.pool.machine_type, kind, cluster.region, attached)
        )
    return tuple(out)


def pool_ceiling_rungs(cluster: Cluster, pool: NodePool) -> tuple[Rate, ...]:
    """:func:`pool_rungs` as the most a node of each rung can cost (:func:`ceiling_rate`)."""
    cloud = target(cluster.cloud)
    out = []
    for rung, rate in zip(
        cloud.ladder(cluster, pool).rungs, pool_rungs(cluster, pool), strict=True
    ):
        capacity = rung.pool.capacity
        max_price = None if isinstance(capacity, list) else capacity.max_price
        attached = cloud.attached_gpus(rung.pool)
        out.append(
            ceiling_rate(
                rate, cluster.cloud, rung.pool.machine_type, cluster.region, attached, max_price
            )
        )
    return tuple(out)


def ceiling_rate(
    rate: Rate,
    cloud: Cloud,
    machine_type: str,
    region: str | None,
    attached: tuple[str, int] | None = None,
    max_price: float | None = None,
) -> Rate:
    """The most one node can cost an hour under ``rate``'s capacity type.

    A spot price moves, but within bounds: no cloud bills spot above the on-demand price, GCE
    spot is always 60-91 % off on-demand (so at most 40 % of it: the catalog's
    ``most_of_on_demand``), and an AKS spot node is evicted before it costs more than its
    ``max_price``. So a spot rate of unknown price is bounded by on-demand (a ceiling, not a
    lower bound), a GCE spot ceiling is priced at its published bound rather than a stale
    point, and an AKS pool's ``max_price`` caps it. Other capacity types are returned as they
    are.
    """
    if rate.capacity != "spot":
        return rate
    od = shape_rate(cloud, machine_type, "on-demand", region, attached)
    bound, why = od.usd_per_hour, "the on-demand price"
    billing = catalog.capacity_billing(cloud, "spot")
    share = billing.most_of_on_demand if billing is not None else None
    if bound is not None and share is not None:
        # A published bound on a price that moves (GCE: 60-91 % off on-demand).
        bound, why = round(bound * share, 5), f"{share:.0%} of on-demand"
    if max_price is not None and (bound is None or max_price < bound):
        bound, why = max_price, "the pool's max_price"
    if bound is None or (max_price is None and share is None and rate.usd_per_hour is not None):
        return rate
    now = "unknown" if rate.usd_per_hour is None else f"{rate.usd_per_hour:g} when read"
    note = f"spot price {now}; at most {why}, {bound:g} an hour"
    unverified = rate.unverified or (od.unverified and bound == od.usd_per_hour)
    return replace(rate, usd_per_hour=bound, unknown=None, unverified=unverified, note=note)


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
    fetched = _fetched(cloud, machine_type, billing.basis, region)
    if fetched is not None and attached is None:
        notes = [n for n in (fetched.note, billing.note) if n]
        return Rate(
            capacity,
            fetched.usd_per_hour,
            fetched.source_url,
            fetched.price_date,
            fetched.region,
            note="; ".join([f"SKUs {', '.join(fetched.skus)}, fetched {fetched.fetched}", *notes]),
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


def _fetched(cloud: Cloud, machine_type: str, basis: str, region: str | None) -> Figure | None:
    """The figure of the price file in use (``gpuplat prices update``) for this shape, if any."""
    prices = pricefile.active()
    if prices is None or region is None or basis not in ("on_demand", "spot"):
        return None
    return prices.find(cloud, machine_type, basis.replace("_", "-"), region)


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
    note = target(cloud).price_notes.get(basis)
    return f" ({note})" if note else ""


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


def cluster_fee_rate(cloud: Cloud, tier: str | None = None) -> Rate:
    """The hourly control-plane fee of a cluster: in the tier gpuplat renders it with, or in
    ``tier`` (e.g. ``extended`` while its Kubernetes minor is in extended support)."""
    fee = catalog.cluster_fee(cloud, tier)
    if fee is None:
        which = f"{tier} " if tier else ""
        return Rate("fee", None, unknown=f"no {cloud} {which}cluster fee in the catalog")
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
