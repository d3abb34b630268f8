"""The cost delta of a Terraform plan: the cluster's bill before and after it.

Node pools and cluster fees are read from the plan's resource values (``terraform show -json``)
into the spec's terms — shape, capacity type, fewest and most nodes — and priced by the same
:func:`gpuplat.cost.rates.shape_rate` as ``gpuplat cost``. The rest of the bill (boot disks,
local SSDs, NAT, load balancer, public IPv4) is priced by ``cost``'s own
:func:`gpuplat.cost.lines.cluster_lines` at the node counts the plan holds, and what that bill
does not count is named the same way: a plan's figure after it is ``cost``'s figure for the
cluster (tests/cost/test_plan_is_cost.py). The before side is what the state holds, which no spec
describes any more: its other lines are priced as the spec's cluster renders them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from gpuplat import clock
from gpuplat.addresses import Element, element_of
from gpuplat.catalog import Cloud
from gpuplat.cost.estimate import COMMITTED
from gpuplat.cost.lines import Counts, cluster_lines
from gpuplat.cost.money import Amount, per_node, total
from gpuplat.cost.rates import ceiling_rate, cluster_fee_rate, shape_rate
from gpuplat.spec.model import Cluster, Spec
from gpuplat.targets import target_of_resource
from gpuplat.targets.planvalues import PlannedPool
from gpuplat.terraform import Action, Plan, ResourceChange


@dataclass(frozen=True, slots=True)
class CostDelta:
    """What the stage's node pools and cluster fees cost at the floor and ceiling, before/after."""

    floor_before: Amount
    floor_after: Amount
    ceiling_before: Amount
    ceiling_after: Amount
    not_counted: tuple[str, ...] = ()
    """What the bill after the plan is charged that no amount here includes (as in ``cost``)."""

    def text(self) -> str:
        def one(before: Amount, after: Amount) -> str:
            delta = round(after.usd_per_month - before.usd_per_month, 2)
            partial = "?" if before.partial or after.partial else ""
            sign = "+" if delta > 0 else "-"
            change = f" ({sign}${abs(delta):,.2f}{partial})" if delta else ""
            return f"{before.text()} -> {after.text()}{change}"

        return (
            f"cost/month at min: {one(self.floor_before, self.floor_after)}; "
            f"at max: {one(self.ceiling_before, self.ceiling_after)}"
        )

    def unknown(self) -> tuple[str, ...]:
        amounts = (self.floor_before, self.floor_after, self.ceiling_before, self.ceiling_after)
        return tuple(dict.fromkeys(r for a in amounts for r in a.unknown))

    def to_json(self) -> dict[str, object]:
        from gpuplat.cost.money import amount_json

        return {
            "floor_before": amount_json(self.floor_before),
            "floor_after": amount_json(self.floor_after),
            "ceiling_before": amount_json(self.ceiling_before),
            "ceiling_after": amount_json(self.ceiling_after),
            "not_counted": list(self.not_counted),
        }


@dataclass(frozen=True, slots=True)
class Billed:
    """The spec's cluster a plan is of: what prices the bill's lines beside nodes and fee."""

    cluster: Cluster
    protected: bool
    """Its environment is prod-like (EKS then has a NAT gateway per zone)."""


def billed(spec: Spec, env: str, cluster: str) -> Billed | None:
    """The :class:`Billed` of one cluster of an environment's spec, or None if it has none."""
    found = next((c for c in spec.clusters if c.name == cluster), None)
    if found is None:
        return None
    one = next((e for e in spec.environments if e.name == env), None)
    return Billed(found, one is not None and one.is_protected())


def cost_delta(
    plan: Plan,
    table: Mapping[str, Element],
    regions: Mapping[str, str] | None = None,
    today: date | None = None,
    bill: Billed | None = None,
) -> CostDelta | None:
    """The cost of a plan's node pools and clusters before and after it, or None if it has none.

    Args:
        plan: The parsed ``terraform show -json`` plan.
        table: Module labels -> spec elements (which cluster a pool belongs to).
        regions: Cluster name -> region, from the spec; a GKE pool's own location is used
            where a cluster is not named here.
        today: The day the cluster fees are priced on (a minor in extended support costs
            more); None for :func:`gpuplat.clock.today`.
        bill: The spec's cluster the plan is of: with it, each side where the cluster exists
            also counts the lines of :func:`gpuplat.cost.lines.cluster_lines` at the plan's
            node counts, and the delta names what is not counted; without it, nodes and fees.

    Returns:
        The delta, or None when the plan holds no node pool or cluster.

    The node pools of one capacity ladder share its cap: each may grow to all of it, never all
    at once. A ladder's ceiling is its dearest rung at the cap, not the sum of its rungs (a rung
    of unknown price makes it a lower bound, as everywhere). Reservations and Capacity Blocks
    are billed for all they hold whether nodes run or not: their most nodes at every level, on
    top of the dearest other rung (as :mod:`gpuplat.cost.estimate` prices them).
    """
    on = today if today is not None else clock.today()
    sums = [Amount(), Amount(), Amount(), Amount()]
    ladders: dict[tuple[int, str], Amount] = {}
    nodes: tuple[_Nodes, _Nodes] = (_Nodes(), _Nodes())
    seen = False
    zones = cluster_zones(plan)
    for change in plan.resource_changes:
        cloud = target_of_resource(change.type)
        if cloud is None:
            continue
        seen = True
        region = _region(change, table, regions or {})
        owner = element_of(change.address, dict(table))
        for slot, values in ((0, change.before), (1, change.after)):
            if not isinstance(values, dict) or (slot == 1 and change.action is Action.DELETE):
                continue
            if change.type == cloud.cluster_resource:
                nodes[slot].exists = True
                fee = _fee(cloud.cloud, cloud.planned_fee_tier(values, on))
                sums[slot] = sums[slot] + fee
                sums[slot + 2] = sums[slot + 2] + fee
                # AKS keeps its system (default) node pool inside the cluster resource.
                for inner in cloud.planned_cluster_pools(values):
                    nodes[slot].add(None, inner)
                    low, high = _priced(inner, region)
                    sums[slot] = sums[slot] + low
                    sums[slot + 2] = sums[slot + 2] + high
                continue
            pool = cloud.planned_pool(values, zones.get(slot))
            if pool is None:
                continue
            nodes[slot].add(_pool_name(owner, change.address), pool)
            low, high = _priced(pool, region)
            sums[slot] = sums[slot] + low
            if pool.ladder is None or pool.capacity in COMMITTED:
                sums[slot + 2] = sums[slot + 2] + high
            else:
                key = (slot, pool.ladder)  # a plan is of one cluster: a pool name is unique
                ladders[key] = _dearest(ladders.get(key), high)
    if not seen:
        return None
    for (slot, _), most in sorted(ladders.items()):
        sums[slot + 2] = sums[slot + 2] + most
    unpriced: tuple[str, ...] = ()
    if bill is not None:
        for slot in (0, 1):
            if not nodes[slot].exists:
                continue
            lines, missing = cluster_lines(bill.cluster, bill.protected, nodes[slot].counts(bill))
            sums[slot] = sums[slot] + total(line.floor for line in lines)
            sums[slot + 2] = sums[slot + 2] + total(line.ceiling for line in lines)
            if slot == 1:
                unpriced = (*missing, *nodes[slot].strangers(bill))
    return CostDelta(sums[0], sums[1], sums[2], sums[3], unpriced)


class _Nodes:
    """Nodes of one side of a plan per spec pool (None: the system pool) at min and at max."""

    def __init__(self) -> None:
        self.exists = False
        """The cluster resource is on this side (its network and fee are billed)."""
        self.pools: dict[str | None, list[int]] = {}

    def add(self, name: str | None, pool: PlannedPool) -> None:
        low, high = self.pools.setdefault(name, [0, 0])
        # A ladder's rungs share its cap: each may hold all of it, never all at once.
        most = max(high, pool.max_nodes) if pool.ladder is not None else high + pool.max_nodes
        self.pools[name] = [low + pool.min_nodes, most]

    def counts(self, bill: Billed) -> list[Counts]:
        by_name = {p.name: p for p in bill.cluster.node_pools}
        out = [
            Counts(by_name[name], low, low, high)
            for name, (low, high) in self.pools.items()
            if name is not None and name in by_name
        ]
        if None in self.pools:
            low, high = self.pools[None]
            out.append(Counts(None, low, low, high))
        return out

    def strangers(self, bill: Billed) -> tuple[str, ...]:
        """Pools the plan holds that the spec's cluster does not: their disks are not priced."""
        known = {p.name for p in bill.cluster.node_pools}
        return tuple(
            f"boot disks of {name} (not in the spec)"
            for name in self.pools
            if name is not None and name not in known
        )


def _pool_name(owner: Element, address: str) -> str | None:
    """The spec pool a planned pool resource renders (None: the cluster's system pool)."""
    if owner.kind == "pool":
        return owner.name.split("/", 1)[-1]
    if owner.kind == "cluster":
        return None
    return address


def cluster_zones(plan: Plan) -> dict[int, int]:
    """Zones of the plan's cluster before (0) and after (1) it, where its values say: its node
    pools spread over them unless they name their own (a plan is of one cluster)."""
    out: dict[int, int] = {}
    for change in plan.resource_changes:
        cloud = target_of_resource(change.type)
        if cloud is None or change.type != cloud.cluster_resource:
            continue
        for slot, values in ((0, change.before), (1, change.after)):
            zones = cloud.planned_zones(values) if isinstance(values, dict) else None
            if zones is not None:
                out[slot] = zones
    return out


def _dearest(known: Amount | None, other: Amount) -> Amount:
    """The dearer of two amounts; unknown parts of either stay named."""
    if known is None:
        return other
    dearer = max(known.usd_per_hour, other.usd_per_hour)
    return Amount(dearer, tuple(dict.fromkeys((*known.unknown, *other.unknown))))


def _fee(cloud: Cloud, tier: str | None) -> Amount:
    rate = cluster_fee_rate(cloud, tier)
    return per_node(rate.usd_per_hour, rate.unknown, 1)


def _priced(pool: PlannedPool, region: str | None) -> tuple[Amount, Amount]:
    if pool.machine_type is None:
        reason = f"{pool.capacity}: the plan does not name the instance type"
        return per_node(None, reason, pool.min_nodes), per_node(None, reason, pool.max_nodes)
    rate = shape_rate(pool.cloud, pool.machine_type, pool.capacity, region, pool.attached)
    if pool.capacity in COMMITTED:
        # Billed for all it holds whether nodes run or not: its most nodes at every level.
        held = per_node(rate.usd_per_hour, rate.unknown, pool.max_nodes)
        return held, held
    most = ceiling_rate(rate, pool.cloud, pool.machine_type, region, pool.attached, pool.max_price)
    return (
        per_node(rate.usd_per_hour, rate.unknown, pool.min_nodes),
        per_node(most.usd_per_hour, most.unknown, pool.max_nodes),
    )


def _region(
    change: ResourceChange, table: Mapping[str, Element], regions: Mapping[str, str]
) -> str | None:
    element = element_of(change.address, dict(table))
    cluster = element.name.split("/", 1)[0]
    if cluster in regions:
        return regions[cluster]
    for values in (change.after, change.before):
        location = values.get("location") if isinstance(values, dict) else None
        if isinstance(location, str) and location:
            # A zonal location (us-central1-a) is in the region before its last dash.
            parts = location.split("-")
            return "-".join(parts[:-1]) if len(parts) == 3 and len(parts[-1]) == 1 else location
    return None
