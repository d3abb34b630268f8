"""A workload's placements: each names one of its clusters, one of them serves, and a problem
of an overridden value is reported where the override is written."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec, Workload
from gpuplat.spec.resolve import workload_pools
from gpuplat.spec.roles import OVERRIDES, active_clusters, placement, role_of
from gpuplat.targets import target


def check(spec: Spec, workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Placements name clusters of the workload; one serves; warm standbys and ladders fit."""
    for name in workload.placements:
        if name not in workload.clusters:
            yield loc.error(
                (*base, "placements", name),
                f'cluster "{name}" is not one of the workload\'s clusters',
                f"placements are per cluster of clusters: {', '.join(workload.clusters)}",
                at_key=True,
            )
    if not active_clusters(workload):
        yield loc.error(
            (*base, "placements"),
            f'no cluster serves workload "{workload.name}": every placement is a standby',
            f"set role: active on one of: {', '.join(workload.clusters)}",
        )
    for name in workload.clusters:
        placed = workload.placements.get(name)
        if placed is None:
            continue
        path = (*base, "placements", name)
        if role_of(workload, name) != "warm" and "warm_replicas" in placed.model_fields_set:
            yield loc.error(
                (*path, "warm_replicas"),
                f"warm_replicas is for a warm standby; {name} is {role_of(workload, name)}",
                "set role: warm, or remove warm_replicas",
                at_key=True,
            )
        if role_of(workload, name) == "warm" and workload.scale_to_zero:
            yield loc.error(
                (*path, "role"),
                "a scale_to_zero workload has no warm standby: KEDA takes it to zero when idle",
                "use role: cold (it starts on its first request), or turn scale_to_zero off",
            )
        high = (placed.replicas or workload.replicas).max
        if role_of(workload, name) == "warm" and placement(workload, name).warm_replicas > high:
            yield loc.warning(
                (*path, "warm_replicas"),
                f"warm_replicas {placed.warm_replicas} is more than replicas.max {high}: "
                f"{high} run",
                f"lower warm_replicas to {high}",
            )
    yield from _ladders(spec, workload, base, loc)


def _ladders(spec: Spec, workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A pod selects at most one ladder of a cluster whose ladders need a selector (GKE)."""
    clusters = {c.name: c for c in spec.clusters}
    for name, pools in workload_pools(spec, workload).items():
        cluster = clusters[name]
        cloud = target(cluster.cloud)
        selecting = [p for p in pools if cloud.ladder_selector(cloud.ladder(cluster, p))[0]]
        if selecting and len(pools) > 1:
            where = "pool" if workload.pool is not None else "accelerator"
            yield loc.error(
                (*base, where),
                f'on cluster "{name}" the workload may use pools {", ".join(p.name for p in pools)}; '
                f'pool "{selecting[0].name}" is a capacity ladder, whose pods select its '
                f"{cloud.title} class and so cannot land on another pool",
                "name the ladder's pool with pool:, or make the other pools rungs of the ladder",
            )


def relocate(
    found: Iterable[Diagnostic], workload: Workload, cluster: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Point a per-cluster problem of an overridden value at the override that set it."""
    placed = workload.placements.get(cluster)
    overridden = {k for k in OVERRIDES if placed is not None and getattr(placed, k) is not None}
    for diag in found:
        path = diag.path
        if overridden and len(path) > len(base) and path[: len(base)] == base:
            key = path[len(base)]
            if key in overridden:
                moved = (*base, "placements", cluster, *path[len(base) :])
                mark = loc.mark(moved)
                diag = replace(diag, path=moved, mark=mark, file_rank=loc.ranks.get(mark.file, 9))
        yield diag
