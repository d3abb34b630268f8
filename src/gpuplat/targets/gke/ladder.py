"""GKE capacity ladders: one custom ComputeClass per laddered pool, whose priorities follow the
rungs and name the node pools they render.

Every rung's node pool carries the class's node label and taint (``cloud.google.com/
compute-class=<class>``), the way GKE expects manually created pools of a class to be marked,
and a workload on the pool selects the class. GKE's autoscaler then scales the first rung that
can get capacity, and with ``activeMigration.optimizeRulePriority`` moves pods back up the
ladder when a higher rung has capacity again.
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder, LadderRung
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.spec.resolve import version_tuple, workload_pools
from gpuplat.targets.gke.computeclass import CLASS_LABEL, ComputeClass, PriorityRule
from gpuplat.workload.budget import NODE_START_SECONDS

KINDS = ("reservation", "on-demand", "flex-start", "spot")
"""What GKE ladders climb through (EC2 Capacity Blocks are EKS's)."""
WHEN_UNSATISFIABLE = {"wait": "DoNotScaleUp", "scale-up-anyway": "ScaleUpAnyway"}


def class_name(ladder: Ladder) -> str:
    """Name of the ComputeClass of a laddered pool (prefixed: GKE ships classes of its own)."""
    return f"gpuplat-{ladder.pool.name}"


def start_to_serve(spec: Spec, cluster: Cluster, ladder: Ladder) -> int:
    """Seconds from a node's creation until the slowest workload on the pool serves on it.

    A new GPU node and the slowest ``load_time_budget`` of the workloads on the pool: a
    flex-start node reclaimed sooner than that never serves.
    """
    budgets = [
        w.load_time_budget
        for w in spec.workloads
        if any(p.name == ladder.pool.name for p in workload_pools(spec, w).get(cluster.name, []))
    ]
    return NODE_START_SECONDS + max(budgets, default=0)


def rule(rung: LadderRung) -> PriorityRule:
    """The priority rule of one rung: the node pool it renders, and nothing else.

    A ``nodepools`` rule takes no other field; the rung's capacity (reservation, spot,
    flex-start and its run duration) is the node pool's own configuration.
    """
    return PriorityRule(nodepools=(rung.pool.name,))


def compute_class(spec: Spec, cluster: Cluster, ladder: Ladder) -> ComputeClass:
    """The ComputeClass of a laddered pool: one priority rule per rung, in order."""
    return ComputeClass(
        name=class_name(ladder),
        priorities=tuple(rule(r) for r in ladder.rungs),
        when_unsatisfiable=WHEN_UNSATISFIABLE[ladder.pool.autoscaling.when_unavailable],  # type: ignore[arg-type]
        optimize_rule_priority=True,
        labels=(
            ("app.kubernetes.io/managed-by", "gpuplat"),
            ("gpuplat.dev/pool", ladder.pool.name),
        ),
    )


def compute_classes(spec: Spec, cluster: Cluster, ladders: list[Ladder]) -> list[ComputeClass]:
    """Every ComputeClass of a cluster: one per pool with a ladder of several rungs."""
    return [compute_class(spec, cluster, lad) for lad in ladders if lad.is_ladder]


def selector(ladder: Ladder) -> tuple[dict[str, str], tuple[dict[str, str], ...]]:
    """What a workload on a laddered pool adds: select the class, tolerate its taint."""
    name = class_name(ladder)
    toleration = {"key": CLASS_LABEL, "operator": "Equal", "value": name, "effect": "NoSchedule"}
    return {CLASS_LABEL: name}, (toleration,)


def check(
    spec: Spec, cluster: Cluster, ladder: Ladder, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Version floors, flex-start rungs, and the ComputeClass itself, before it is rendered."""
    version = (*base[:2], "kubernetes", "version")
    what = "a capacity ladder (custom ComputeClass)"
    yield from _floor(cluster, "gke_custom_compute_class", what, (*base, "capacity"), version, loc)
    for rung in ladder.rungs:
        path = (*base, *rung.path)
        if rung.kind == "flex-start":
            yield from _floor(cluster, "gke_flex_start", "a flex-start rung", path, version, loc)
            need = start_to_serve(spec, cluster, ladder)
            if rung.max_run_duration is not None and need >= rung.max_run_duration:
                yield loc.error(
                    (*path, "flex-start", "max_run_duration"),
                    f"flex-start nodes of this rung run {rung.max_run_duration}s, but a new "
                    f"node and the slowest workload on it need {need}s before it serves: "
                    "each node would be reclaimed before it serves",
                    "raise max_run_duration (at most 7d)",
                    details=(
                        f"{NODE_START_SECONDS}s for a new GPU node + the longest "
                        f"load_time_budget of the workloads on the pool = {need}s",
                    ),
                )
            if rung.index == 0 and ladder.pool.autoscaling.min_nodes:
                yield loc.error(
                    (*base, "autoscaling", "min_nodes"),
                    "the first rung is flex-start, whose nodes start only for pods that wait "
                    "for them: min_nodes must be 0",
                    "put a rung that keeps nodes (reservation, on-demand) first, or set "
                    "min_nodes: 0",
                )
    # Imported here: cel-python takes a third of a second to import, and only ladders need it.
    from gpuplat import crds

    cls = compute_class(spec, cluster, ladder)
    for problem in cls.problems():
        yield loc.error((*base, "capacity"), f"the ComputeClass would be wrong: {problem}")
    for finding in crds.check_object(cls.manifest(), crds.Result()):
        yield loc.error(
            (*base, "capacity"),
            f"GKE would refuse the ComputeClass {cls.name}: {finding}",
            "this is a gpuplat defect: please report it with the spec",
        )


def _floor(
    cluster: Cluster, name: str, what: str, path: KeyPath, version_path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    version = cluster.kubernetes.version
    parsed = version_tuple(version) if version is not None else None
    floor = catalog.feature_floor(name)
    needed = version_tuple(floor.version)
    if parsed is None or needed is None or parsed >= needed:
        if parsed is not None and needed is not None and parsed == needed:
            yield loc.warning(
                version_path,
                f"{what} needs GKE {floor.version} or later; {version} may be older",
                f'set kubernetes.version to a later minor, e.g. "{needed[0]}.{needed[1] + 1}"',
            )
        return
    yield loc.error(
        path,
        f'{what} needs GKE {floor.version} or later; cluster "{cluster.name}" runs {version}',
        f'set clusters[].kubernetes.version to "{needed[0]}.{needed[1] + 1}" or later',
        related=[(version_path, "the version is set here")],
    )
