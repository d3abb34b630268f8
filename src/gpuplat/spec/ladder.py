"""A pool's capacity ladder as data: its rungs, the node pool each rung renders, and its one cap.

A pool of one capacity type is a ladder of one rung whose node pool is the pool itself, so every
pool is read the same way. A ladder of several rungs renders one node pool per rung, named from
the pool's name and the rung's suffix by the cloud's own rule (``<pool>-<rung>`` on GKE and EKS;
AKS names hold no dash), all carrying the pool's ``gpuplat.dev/pool`` label: workloads still
select the pool, and the cloud's own mechanism (GKE ComputeClass, the cluster autoscaler's
priority expander on EKS and AKS) decides which rung a new node comes from.

The cap is one number for the whole ladder: ``autoscaling.max_nodes`` or ``max_gpus``. Each
rung may alone have to hold all of it (the rungs above may have nothing), so each rung's node
pool gets the whole cap as its maximum; what keeps the rungs together under the cap is a
ResourceQuota on the workloads' GPUs (see workload/quota.py), because no cloud adds up node
pools for us.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from gpuplat.memo import ByIdentity
from gpuplat.spec.diagnostics import KeyPath
from gpuplat.spec.model import Capacity, Cluster, NodePool, Rung
from gpuplat.spec.resolve import resolve_pool

RungKind = Literal["reservation", "on-demand", "flex-start", "capacity-block", "spot", "queued"]
SUFFIX: dict[str, str] = {
    "reservation": "res",
    "on-demand": "od",
    "flex-start": "flex",
    "capacity-block": "cb",
    "spot": "spot",
    "queued": "queued",
}
"""Default suffix of a rung's node pool name, by kind."""
RUNG_LABEL = "gpuplat.dev/rung"
"""Node label naming the rung a node came from (its node pool's suffix)."""
FLEX_START_DEFAULT_RUN = 7 * 24 * 3600
"""What a flex-start node may run when the spec names no max_run_duration."""
_KIND_KEYS = {
    "reservation": "reservation",
    "on_demand": "on-demand",
    "flex_start": "flex-start",
    "capacity_block": "capacity-block",
    "spot": "spot",
}
"""Rung mapping field -> the kind it names."""
RungNamer = Callable[[str, str], str]
"""How a cloud names a rung's node pool from the pool's name and the rung's suffix."""


def dashed(pool: str, suffix: str) -> str:
    """``<pool>-<suffix>``: a rung's node pool name where pool names may hold dashes."""
    return f"{pool}-{suffix}"


@dataclass(frozen=True)
class LadderRung:
    """One rung: its kind, where it was written and the node pool it renders."""

    index: int
    kind: RungKind | None
    """None when the rung names no kind or several (the checks report it)."""
    name: str
    """The rung's suffix; the whole pool's name for a pool of one capacity type."""
    path: KeyPath
    """Key path of the rung, relative to the pool (``capacity`` or ``capacity.<k>``)."""
    pool: NodePool
    """The node pool this rung renders (the pool itself for a pool of one capacity type)."""
    kinds: tuple[str, ...] = ()
    """Every kind key a rung mapping names (one, when it is right)."""
    reservation: str | None = None
    block: str | None = None
    project: str | None = None
    max_run_duration: int | None = None
    capacity_block: str | None = None
    priority_score: int | None = None
    """GKE: the rung's priorityScore in its ComputeClass, when the spec gives one."""


@dataclass(frozen=True)
class Ladder:
    """Every rung of one pool, most preferred first, and the cap they share."""

    pool: NodePool
    rungs: tuple[LadderRung, ...]
    cap_nodes: int
    """Most nodes of the whole ladder (of its largest-GPU rung, when the cap is in GPUs)."""
    cap_gpus: int | None
    """Most GPUs of the whole ladder, when the cap is written in GPUs."""

    @property
    def is_ladder(self) -> bool:
        """Several rungs: the pool renders one node pool per rung and a cloud-side priority."""
        return len(self.rungs) > 1

    def written(self, rung: LadderRung) -> Rung | None:
        """The rung as the spec writes it, when it is a mapping (``{reservation: ...}``); None
        for a bare kind (``spot``) or a pool of one capacity type."""
        capacity = self.pool.capacity
        item = capacity[rung.index] if isinstance(capacity, list) else None
        return item if isinstance(item, Rung) else None


def capacity_kind(capacity: Capacity) -> RungKind:
    """The rung kind of a single capacity mapping (an EKS reservation block is capacity-block)."""
    if capacity.type == "reservation" and capacity.block:
        return "capacity-block"
    return capacity.type


def single_capacity(pool: NodePool) -> Capacity | None:
    """A pool's one capacity mapping, or None for a ladder (whose rungs are checked one by one)."""
    return None if isinstance(pool.capacity, list) else pool.capacity


def capacity_kinds(pool: NodePool) -> tuple[RungKind | None, ...]:
    """The kind of each rung of a pool, in order (None for a rung that names no kind or
    several), without resolving its node pools."""
    if not isinstance(pool.capacity, list):
        return (capacity_kind(pool.capacity),)
    out: list[RungKind | None] = []
    for item in pool.capacity:
        kinds = (item,) if isinstance(item, str) else _kinds(item)
        out.append(kinds[0] if len(kinds) == 1 else None)  # type: ignore[arg-type]
    return tuple(out)


def is_ladder(pool: NodePool) -> bool:
    """Whether a pool's capacity is a list of several rungs."""
    return isinstance(pool.capacity, list) and len(pool.capacity) > 1


_LADDERS: ByIdentity[Ladder] = ByIdentity(1 << 15)
"""Ladders already worked out, by the identity of their (immutable) cluster and pool: the checks,
the views of every stage and the serving plans all ask for each pool's ladder."""


def ladder(cluster: Cluster, pool: NodePool, namer: RungNamer) -> Ladder:
    """The ladder of a pool: one rung for a single capacity mapping.

    ``namer`` is the cloud's rule for a rung's node pool name (``Target.rung_pool_name``);
    shared code reaches this through ``Target.ladder``, which passes it.
    """
    return _LADDERS.get((cluster, pool), (namer,), lambda: _ladder(cluster, pool, namer))


def _ladder(cluster: Cluster, pool: NodePool, namer: RungNamer) -> Ladder:
    gpus = resolve_pool(cluster, pool).gpus_per_node
    auto = pool.autoscaling
    cap_gpus = auto.max_gpus
    cap_nodes = _nodes_for(cap_gpus, gpus) if cap_gpus is not None else auto.max_nodes
    if not isinstance(pool.capacity, list):
        single = pool
        if cap_gpus is not None:
            single = _with(pool, autoscaling=auto.model_copy(update={"max_nodes": cap_nodes}))
        cap = capacity_kind(pool.capacity)
        rung = LadderRung(
            0,
            cap,
            pool.name,
            ("capacity",),
            single,
            (cap,),
            pool.capacity.reservation,
            None,
            pool.capacity.reservation_project,
            pool.capacity.max_run_duration,
            pool.capacity.reservation if cap == "capacity-block" else None,
        )
        return Ladder(pool, (rung,), cap_nodes, cap_gpus)
    several = len(pool.capacity) > 1
    seen: Counter[str] = Counter()
    rungs = []
    for k, item in enumerate(pool.capacity):
        written = Rung() if isinstance(item, str) else item
        kinds = (item,) if isinstance(item, str) else _kinds(item)
        kind: RungKind | None = kinds[0] if len(kinds) == 1 else None  # type: ignore[assignment]
        default = SUFFIX.get(kind or "", "rung")
        seen[default] += 1
        suffix = written.name or (default if seen[default] == 1 else f"{default}{seen[default]}")
        name = namer(pool.name, suffix) if several else pool.name
        reservation = written.reservation if kind == "reservation" else None
        run = None
        if kind == "flex-start":
            settings = written.flex_start
            run = settings.max_run_duration if settings and settings.max_run_duration else None
            run = run or FLEX_START_DEFAULT_RUN
        node_pool = _rung_pool(cluster, pool, written, kind, name, k, cap_gpus)
        rungs.append(
            LadderRung(
                k,
                kind,
                suffix if several else pool.name,
                ("capacity", k),
                node_pool,
                kinds,
                reservation,
                written.block,
                written.project,
                run,
                written.capacity_block,
                written.priority_score,
            )
        )
    return Ladder(pool, tuple(rungs), cap_nodes, cap_gpus)


def _kinds(rung: Rung) -> tuple[str, ...]:
    fields = rung.model_fields_set
    return tuple(kind for key, kind in _KIND_KEYS.items() if key in fields)


def _nodes_for(gpus_cap: int, gpus_per_node: int | None) -> int:
    """Nodes a GPU cap allows: whole nodes only (a partial node would pass the cap)."""
    return gpus_cap // gpus_per_node if gpus_per_node else 0


def _with(pool: NodePool, **changes: object) -> NodePool:
    """A copy of a validated pool with some fields replaced (values are already valid)."""
    return pool.model_copy(update=changes)


def _rung_pool(
    cluster: Cluster,
    pool: NodePool,
    rung: Rung,
    kind: RungKind | None,
    name: str,
    index: int,
    cap_gpus: int | None,
) -> NodePool:
    """The concrete node pool of one rung: its own shape, zones, capacity and bounds."""
    machine = rung.machine_type or pool.machine_type
    shaped = _with(pool, machine_type=machine, name=name)
    gpus = resolve_pool(cluster, shaped).gpus_per_node
    most = _nodes_for(cap_gpus, gpus) if cap_gpus is not None else pool.autoscaling.max_nodes
    # The warm floor (min_nodes) is kept on the preferred rung only: the others start empty.
    least = pool.autoscaling.min_nodes if index == 0 else 0
    auto = pool.autoscaling.model_copy(update={"min_nodes": least, "max_nodes": most})
    return _with(
        shaped,
        zones=rung.zones if rung.zones is not None else pool.zones,
        capacity=_capacity(rung, kind),
        autoscaling=auto,
    )


def _capacity(rung: Rung, kind: RungKind | None) -> Capacity:
    if kind == "reservation":
        name = rung.reservation
        if name is not None and rung.block is not None:
            # GKE names a block of a reservation as <reservation>/reservationBlocks/<block>.
            name = f"{name}/reservationBlocks/{rung.block}"
        return Capacity(type="reservation", reservation=name, reservation_project=rung.project)
    if kind == "capacity-block":
        return Capacity(type="reservation", reservation=rung.capacity_block, block=True)
    if kind == "flex-start":
        run = rung.flex_start.max_run_duration if rung.flex_start else None
        return Capacity(type="flex-start", max_run_duration=run or FLEX_START_DEFAULT_RUN)
    if kind == "spot":
        return Capacity(type="spot", max_price=rung.spot.max_price if rung.spot else None)
    return Capacity(type="on-demand")
