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

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder, LadderRung
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.spec.resolve import resolve_pool, version_tuple, workload_pools
from gpuplat.targets.gke.classsettings import floor, refused_here
from gpuplat.targets.gke.computeclass import CLASS_LABEL, ComputeClass, PriorityRule, Reservation
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


DRIVER_VERSIONS = {"DEFAULT": "default", "LATEST": "latest"}
"""The node pool's managed driver channel -> a ComputeClass rule's ``gpu.driverVersion``."""


def auto_create(ladder: Ladder) -> bool:
    """Whether GKE may create node pools for the ladder's ComputeClass."""
    settings = ladder.pool.compute_class
    return ladder.is_ladder and settings is not None and settings.auto_create


def rule(cluster: Cluster, ladder: Ladder, rung: LadderRung) -> PriorityRule:
    """The priority rule of one rung.

    Without auto-creation: the node pool it renders (and its score), nothing else — a
    ``nodepools`` rule takes no other field; the rung's capacity is the node pool's own
    configuration. With it: the rung's machine, GPUs and capacity, which GKE creates node pools
    of, and the settings of those nodes.
    """
    if not auto_create(ladder):
        return PriorityRule(nodepools=(rung.pool.name,), priority_score=rung.priority_score)
    settings = ladder.pool.compute_class
    assert settings is not None  # auto_create() said so
    pool = rung.pool
    gpu = resolve_pool(cluster, pool)
    flex = rung.kind == "flex-start"
    reservation = None
    if rung.kind == "reservation" and rung.reservation is not None:
        reservation = Reservation(rung.reservation, rung.project, rung.block)
    return PriorityRule(
        priority_score=rung.priority_score,
        machine_type=pool.machine_type,
        gpu_type=gpu.accelerator,
        gpu_count=gpu.gpus_per_node,
        driver_version="autoinstall-disabled"
        if pool.driver.install == "none"
        else DRIVER_VERSIONS[pool.driver.version],
        spot=rung.kind == "spot",
        flex_start=flex,
        node_recycling=settings.node_recycling if flex else None,
        max_run_duration=rung.max_run_duration if flex else None,
        reservation=reservation,
        zones=tuple(pool.zones or ()),
        max_pods_per_node=settings.max_pods_per_node,
    )


def compute_class(spec: Spec, cluster: Cluster, ladder: Ladder) -> ComputeClass:
    """The ComputeClass of a laddered pool: one priority rule per rung, in order.

    When the cluster's minor is known the class says so (:data:`gpuplat.crds.MINOR_LABEL`),
    so it is checked against the CRD that minor serves wherever it is read.
    """
    from gpuplat.crds import MINOR_LABEL  # cel-python's import is slow; only ladders need it

    labels = [
        ("app.kubernetes.io/managed-by", "gpuplat"),
        ("gpuplat.dev/pool", ladder.pool.name),
    ]
    minor = _minor(cluster)
    if minor is not None:
        labels.append((MINOR_LABEL, f"{minor[0]}.{minor[1]}"))
    return ComputeClass(
        name=class_name(ladder),
        priorities=tuple(rule(cluster, ladder, r) for r in ladder.rungs),
        when_unsatisfiable=WHEN_UNSATISFIABLE[ladder.pool.autoscaling.when_unavailable],  # type: ignore[arg-type]
        optimize_rule_priority=True,
        labels=tuple(sorted(labels)),
        auto_create=auto_create(ladder),
    )


def _minor(cluster: Cluster) -> tuple[int, int] | None:
    version = cluster.kubernetes.version
    return version_tuple(version) if version is not None else None


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
    yield from floor(cluster, "gke_custom_compute_class", what, (*base, "capacity"), version, loc)
    for rung in ladder.rungs:
        path = (*base, *rung.path)
        if rung.kind == "flex-start":
            yield from floor(cluster, "gke_flex_start", "a flex-start rung", path, version, loc)
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
    if refused_here(cluster, ladder):
        return
    for finding in crds.check_object(cls.manifest(), crds.Result(), minor=_minor(cluster)):
        yield loc.error(
            (*base, "capacity"),
            f"GKE would refuse the ComputeClass {cls.name}: {finding}",
            "this is a gpuplat defect: please report it with the spec",
        )
