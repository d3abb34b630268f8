"""Node pool capacity: capacity types the cloud sells, reservation keys, autoscaling bounds,
zones and compact placement."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath, with_article
from gpuplat.spec.ladder import single_capacity
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets import TARGETS, Target, target

MAX_RUN_DURATION = 7 * 24 * 3600


def capacity(cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Capacity type and its keys, and the pool's autoscaling bounds."""
    cap = single_capacity(pool)
    path = (*base, "capacity")
    cloud = target(cluster.cloud)
    yield from _bounds(pool, base, loc)
    if cap is None:
        return  # a ladder: its rungs are checked in spec/checks/ladder.py
    if cap.type not in cloud.capacity_types:
        sellers = sorted(t.title for t in _sellers(cap.type))
        yield loc.error(
            (*path, "type"),
            f"{cap.type} is {with_article(' and '.join(sellers))} capacity type; {cloud.title} does not sell it",
            cloud.capacity_alternative,
        )
    if cap.type != "reservation":
        for key in ("reservation", "reservation_project"):
            if getattr(cap, key) is not None:
                yield loc.error(
                    (*path, key),
                    f"{key} is only used with type: reservation",
                    "set type: reservation or remove it",
                    at_key=True,
                )
    if cap.max_run_duration is not None and cap.type != "flex-start":
        yield loc.error(
            (*path, "max_run_duration"),
            "max_run_duration is only used with type: flex-start",
            "remove it, or set type: flex-start",
            at_key=True,
        )
    if cap.max_run_duration is not None and cap.max_run_duration > MAX_RUN_DURATION:
        yield loc.error(
            (*path, "max_run_duration"),
            "max_run_duration is at most 7d",
            "flex-start nodes run for up to 7 days",
        )


def _bounds(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    auto = pool.autoscaling
    if auto.max_gpus is not None:
        return  # the cap is in GPUs: spec/checks/ladder.py checks it
    if auto.min_nodes > auto.max_nodes:
        yield loc.error(
            (*base, "autoscaling", "min_nodes"),
            f"min_nodes ({auto.min_nodes}) is more than max_nodes ({auto.max_nodes})",
            "raise max_nodes or lower min_nodes",
        )
    elif auto.max_nodes == 0:
        yield loc.warning(
            (*base, "autoscaling", "max_nodes"),
            f'pool "{pool.name}" can never have a node (max_nodes: 0)',
            "raise max_nodes, or remove the pool",
        )


def placement(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The pool's zones are in the region; compact placement keeps to one zone."""
    cloud = target(cluster.cloud)
    zones = pool.zones if pool.zones is not None else cluster.zones
    for z, zone in enumerate(pool.zones or ()):
        if not cloud.zone_ok(cluster.region, zone):
            yield loc.error((*base, "zones", z), f'zone "{zone}" is not in region {cluster.region}')
    if pool.placement.compact and len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set"
        yield loc.error(
            (*base, "placement", "compact"),
            f"compact placement keeps nodes in one zone; pool has {have}",
            "set the pool's zones to exactly one zone",
        )


def _sellers(capacity_type: str) -> list[Target]:
    return [t for t in TARGETS.values() if capacity_type in t.capacity_types]
