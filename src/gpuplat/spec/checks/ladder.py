"""Capacity ladders: each rung names one kind the cloud sells for the rung's shape, its own
shape and zones fit the pool, the node pools it renders have valid, unique names, and the one
cap is written once."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder, LadderRung
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Rung, Spec
from gpuplat.spec.resolve import resolve_pool
from gpuplat.targets import Target, target

MAX_RUN_DURATION = 7 * 24 * 3600


def check(
    spec: Spec, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Every problem of one pool's capacity ladder (a pool of one capacity type included)."""
    cloud = target(cluster.cloud)
    lad = cloud.ladder(cluster, pool)
    yield from _cap(cluster, lad, base, loc)
    yield from _sold(cluster, lad, base, loc)
    if not lad.is_ladder:
        return
    if pool.autoscaling.per_zone:
        yield loc.error(
            (*base, "autoscaling", "per_zone"),
            "a capacity ladder has one cap across its rungs and zones; per_zone bounds cannot "
            "add up to it",
            "remove per_zone and give the ladder's total in max_nodes (or max_gpus)",
        )
    known = {
        rendered.pool.name
        for other in cluster.node_pools
        if other.name != pool.name
        for rendered in cloud.ladder(cluster, other).rungs
    } | {p.name for p in cluster.node_pools if p.name != pool.name}
    for rung in lad.rungs:
        path = (*base, *rung.path)
        mapping = lad.written(rung)
        yield from _kind(rung, mapping, path, loc, cloud.ladder_kinds)
        if mapping is not None:
            yield from _shape(cluster, pool, rung, mapping, path, loc)
        if rung.pool.name in known:
            yield loc.error(
                path,
                f'rung {rung.index} renders node pool "{rung.pool.name}", a name another pool '
                "of the cluster renders",
                "give the rung its own name: (name: ...) or rename the other pool",
            )
        yield from _rung_name(cloud, pool, rung, path, loc)
    names = [r.pool.name for r in lad.rungs]
    for rung in lad.rungs:
        if names.count(rung.pool.name) > 1 and names.index(rung.pool.name) != rung.index:
            yield loc.error(
                (*base, *rung.path),
                f'two rungs render node pool "{rung.pool.name}"',
                "give one of them its own name: (name: ...)",
            )
    if cloud.ladder_kinds:
        for rung in lad.rungs:
            if rung.kind is not None and rung.kind not in cloud.ladder_kinds:
                yield loc.error(
                    (*base, *rung.path),
                    f"{cloud.title} has no {rung.kind} capacity",
                    f"{cloud.title} ladders climb through: {', '.join(cloud.ladder_kinds)}",
                )
    yield from cloud.check_ladder(spec, cluster, lad, base, loc)


def _rung_name(
    cloud: Target, pool: NodePool, rung: LadderRung, path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """A rung's node pool name, as the cloud joins the pool's name and the rung's suffix."""
    rule = cloud.pool_names
    name = rung.pool.name
    if rule.pattern.match(name) and len(name) <= rule.limit:
        return
    hint = "give the rung a name the cloud accepts: (name: ...)"
    if len(name) > rule.limit and name.startswith(pool.name):
        pool_room = rule.limit - (len(name) - len(pool.name))
        suffix_room = rule.limit - len(cloud.rung_pool_name(pool.name, ""))
        ways = []
        if pool_room >= 1:
            ways.append(
                f"shorten the pool's name to at most {_chars(pool_room)} (the rung adds "
                f'"{name[len(pool.name) :]}")'
            )
        if suffix_room >= 1:
            ways.append(f"give the rung a name of at most {_chars(suffix_room)}: (name: ...)")
        hint = ", or ".join(ways) or hint
    yield loc.error(
        path,
        f'rung {rung.index} renders node pool "{name}", not a valid {cloud.title} pool name '
        f"({rule.allowed}, at most {rule.limit})",
        hint,
    )


def _chars(count: int) -> str:
    return f"{count} character" if count == 1 else f"{count} characters"


def _kind(
    rung: LadderRung,
    mapping: Rung | None,
    path: KeyPath,
    loc: Locator,
    kinds: tuple[str, ...],
) -> Iterator[Diagnostic]:
    if len(rung.kinds) != 1:
        named = " and ".join(rung.kinds) if rung.kinds else "none"
        # The kinds this cloud's ladders climb through (every kind, for a cloud with none yet).
        offered = kinds or ("reservation", "on-demand", "flex-start", "capacity-block", "spot")
        yield loc.error(
            path,
            f"a rung names one kind of capacity; this one names {named}",
            f"write one of: {', '.join(offered)}",
        )
        return
    if mapping is None:
        return
    for key in ("block", "project"):
        if getattr(mapping, key) is not None and rung.kind != "reservation":
            yield loc.error(
                (*path, key),
                f"{key} belongs to a reservation rung, not to {rung.kind}",
                "move it to the rung that names the reservation, or remove it",
                at_key=True,
            )
    if mapping.block is not None and mapping.reservation is None:
        yield loc.error(
            (*path, "block"), "a reservation block needs the reservation's name", at_key=True
        )
    flex = mapping.flex_start
    run = flex.max_run_duration if flex is not None else None
    if run is not None and run > MAX_RUN_DURATION:
        yield loc.error(
            (*path, "flex-start", "max_run_duration"),
            "max_run_duration is at most 7d",
            "flex-start nodes run for up to 7 days",
        )


def _shape(
    cluster: Cluster,
    pool: NodePool,
    rung: LadderRung,
    mapping: Rung,
    path: KeyPath,
    loc: Locator,
) -> Iterator[Diagnostic]:
    cloud = target(cluster.cloud)
    for z, zone in enumerate(mapping.zones or ()):
        if not cloud.zone_ok(cluster.region, zone):
            yield loc.error(
                (*path, "zones", z),
                f'zone "{zone}" is not in region {cluster.region}',
                cloud.zone_hint(cluster.region),
            )
    if mapping.machine_type is None:
        return
    mine, theirs = resolve_pool(cluster, pool), resolve_pool(cluster, rung.pool)
    if theirs.shape is None:
        close = catalog.close_matches(cloud.shape_kind, mapping.machine_type)
        yield loc.error(
            (*path, "machine_type"),
            f'unknown {cloud.shape_word} "{mapping.machine_type}"',
            f'did you mean "{close[0]}"?' if close else None,
        )
    elif (theirs.gpu, theirs.gpus_per_node) != (mine.gpu, mine.gpus_per_node):
        have = f"{theirs.gpus_per_node} x {theirs.accelerator}"
        want = f"{mine.gpus_per_node} x {mine.accelerator}"
        yield loc.error(
            (*path, "machine_type"),
            f"{mapping.machine_type} has {have} per node; every rung of a ladder has the pool's "
            f"GPUs ({want})",
            "the workloads size their replicas from the pool's GPUs: use a shape with the same "
            "GPUs, or make another pool",
        )


def _sold(cluster: Cluster, lad: Ladder, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A rung the catalog says the cloud does not sell for its shape."""
    cloud = target(cluster.cloud)
    for rung in lad.rungs:
        shape = resolve_pool(cluster, rung.pool).shape
        if rung.kind != "on-demand" or shape is None or shape.on_demand_available is not False:
            continue
        offered = [
            k for k in cloud.ladder_kinds or sorted(cloud.capacity_types) if k != "on-demand"
        ]
        path = (*base, *rung.path)
        yield loc.error(
            (*path, "type") if rung.path == ("capacity",) else path,
            f"{shape.name} is not sold on-demand (catalog as of {shape.as_of})",
            f"{cloud.title} sells {shape.name} as: {', '.join(offered)}",
            details=tuple(f"catalog: {note}" for note in shape.notes),
        )


def _cap(cluster: Cluster, lad: Ladder, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """One cap: max_nodes or max_gpus, never both; and one that allows a node."""
    auto = lad.pool.autoscaling
    if auto.max_gpus is None:
        return
    path = (*base, "autoscaling", "max_gpus")
    if "max_nodes" in auto.model_fields_set:
        yield loc.error(
            path,
            "the pool's cap is max_nodes or max_gpus, not both",
            "keep one of them",
            related=[((*base, "autoscaling", "max_nodes"), "max_nodes is set here")],
        )
    gpus = resolve_pool(cluster, lad.pool).gpus_per_node
    if gpus and auto.max_gpus < gpus:
        yield loc.error(
            path,
            f"max_gpus {auto.max_gpus} allows no node of {gpus} GPUs",
            f"raise max_gpus to {gpus} or more",
        )
    elif gpus and auto.max_gpus % gpus:
        yield loc.warning(
            path,
            f"max_gpus {auto.max_gpus} is not a multiple of {gpus} GPUs per node: the ladder "
            f"holds {auto.max_gpus // gpus} nodes ({auto.max_gpus // gpus * gpus} GPUs)",
            f"write max_gpus: {auto.max_gpus // gpus * gpus}",
        )
    if auto.min_nodes > lad.cap_nodes:
        yield loc.error(
            (*base, "autoscaling", "min_nodes"),
            f"min_nodes ({auto.min_nodes}) is more than max_gpus allows ({lad.cap_nodes} nodes)",
            "lower min_nodes or raise max_gpus",
        )
