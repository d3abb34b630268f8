"""What a pool's ``compute_class`` and its rungs' ``priority_score`` need before GKE takes them:
each setting's GKE version floor, and the ladders node-pool auto-creation can serve.

GKE creates a node pool of a rule's machine, GPUs and capacity, and of nothing else the spec
says of the pool: the nodes it creates carry the class's label and taint, not the pool's own
labels, taints or the labels another device plugin needs (GKE's ``nodePoolConfig.nodeLabels``
takes no ``/`` in a key), and a rule's GPU sharing needs a later GKE than the rest. Those pools
are refused with auto-creation rather than rendered to nodes the workloads cannot use.
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.spec.resolve import version_tuple


def check(
    cluster: Cluster, ladder: Ladder, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The floors of the class's settings and rungs' scores; what auto-creation cannot serve."""
    version = (*base[:2], "kubernetes", "version")
    scored = [r for r in ladder.rungs if r.priority_score is not None]
    for rung in scored:
        path = (*base, *rung.path, "priority_score")
        what = "a rung's priority_score (ComputeClass priorityScore)"
        yield from floor(cluster, "gke_computeclass_priority_score", what, path, version, loc)
    if scored and len(scored) < len(ladder.rungs):
        unscored = next(r for r in ladder.rungs if r.priority_score is None)
        yield loc.error(
            (*base, *unscored.path),
            f"this rung has no priority_score, but {len(scored)} other rung(s) of the ladder "
            "have one: GKE takes a priorityScore on every rule of a ComputeClass or on none "
            "(the CRD's rule)",
            "give every rung a priority_score, or none",
        )
    settings = ladder.pool.compute_class
    if settings is None:
        return
    at = (*base, "compute_class")
    if settings.auto_create:
        what = "compute_class.auto_create (ComputeClass node-pool auto-creation)"
        yield from floor(
            cluster, "gke_computeclass_auto_create", what, (*at, "auto_create"), version, loc
        )
        yield from _auto_createable(ladder.pool, plugin, base, loc)
    if settings.max_pods_per_node is not None:
        path = (*at, "max_pods_per_node")
        yield from _needs_auto(settings.auto_create, path, loc)
        what = "compute_class.max_pods_per_node (ComputeClass maxPodsPerNode)"
        yield from floor(cluster, "gke_computeclass_max_pods", what, path, version, loc)
    if settings.node_recycling is not None:
        path = (*at, "node_recycling")
        yield from _needs_auto(settings.auto_create, path, loc)
        what = "compute_class.node_recycling (ComputeClass flexStart.nodeRecycling)"
        yield from floor(cluster, "gke_computeclass_node_recycling", what, path, version, loc)
        runs = [r.max_run_duration for r in ladder.rungs if r.kind == "flex-start"]
        if not runs:
            yield loc.error(
                path,
                "node_recycling replaces flex-start nodes before they end, but no rung of the "
                "ladder is flex-start",
                "remove node_recycling, or add a flex-start rung",
            )
        elif (shortest := min(r or 0 for r in runs)) and settings.node_recycling >= shortest:
            yield loc.error(
                path,
                f"node_recycling starts a replacement {settings.node_recycling}s before a "
                f"flex-start node ends, but the shortest flex-start rung runs {shortest}s: "
                "every node would be replaced as soon as it starts",
                "make node_recycling shorter than the rung's max_run_duration",
            )


def refused_here(cluster: Cluster, ladder: Ladder) -> bool:
    """Whether :func:`check` refuses the class's settings already: the cluster is older than a
    floor of what the class uses, or only some rungs are scored (those errors say where, a
    CRD's refusal of the class would say it again, less well)."""
    names = []
    scores = [r.priority_score is not None for r in ladder.rungs]
    if any(scores) and not all(scores):
        return True
    if any(scores):
        names.append("gke_computeclass_priority_score")
    settings = ladder.pool.compute_class
    if settings is not None and settings.auto_create:
        names.append("gke_computeclass_auto_create")
    if settings is not None and settings.max_pods_per_node is not None:
        names.append("gke_computeclass_max_pods")
    if settings is not None and settings.node_recycling is not None:
        names.append("gke_computeclass_node_recycling")
    version = cluster.kubernetes.version
    parsed = version_tuple(version) if version is not None else None
    if parsed is None:
        return False
    needed = (version_tuple(catalog.feature_floor(n).version) for n in names)
    return any(n is not None and parsed < n for n in needed)


def not_a_ladder(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """``compute_class`` on a pool of one capacity type, which renders no ComputeClass."""
    if pool.compute_class is None or (isinstance(pool.capacity, list) and len(pool.capacity) > 1):
        return
    yield loc.error(
        (*base, "compute_class"),
        f'pool "{pool.name}" has one capacity type, so it renders no ComputeClass for '
        "compute_class to configure",
        "make capacity a ladder of several rungs, or remove compute_class",
    )


def floor(
    cluster: Cluster, name: str, what: str, path: KeyPath, version_path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Refuse ``what`` on a cluster older than the floor ``name``; warn on the floor's own minor
    when the floor is a patch of it (the cluster's patch is not known)."""
    version = cluster.kubernetes.version
    parsed = version_tuple(version) if version is not None else None
    floor_ = catalog.feature_floor(name)
    needed = version_tuple(floor_.version)
    patched = needed is not None and floor_.version != f"{needed[0]}.{needed[1]}"
    later = f"{needed[0]}.{needed[1] + 1}" if needed is not None and patched else floor_.version
    if parsed is None or needed is None or parsed >= needed:
        if parsed is not None and patched and parsed == needed:
            yield loc.warning(
                version_path,
                f"{what} needs GKE {floor_.version} or later; {version} may be older",
                f'set kubernetes.version to a later minor, e.g. "{later}"',
            )
        return
    inferred = " (a floor inferred from the vendored CRDs)" if floor_.unverified else ""
    yield loc.error(
        path,
        f'{what} needs GKE {floor_.version} or later{inferred}; cluster "{cluster.name}" '
        f"runs {version}",
        f'set clusters[].kubernetes.version to "{later}" or later, or remove it',
        related=[(version_path, "the version is set here")],
    )


def _needs_auto(auto: bool, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    if auto:
        return
    yield loc.error(
        path,
        "this setting belongs to the nodes GKE creates for the class; without auto_create "
        "every rule names one of gpuplat's node pools, and GKE refuses any other field beside "
        "it",
        "set compute_class.auto_create: true, or remove it",
    )


def _auto_createable(
    pool: NodePool, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    path = (*base, "compute_class", "auto_create")
    if pool.sharing.mode != "none":
        yield loc.error(
            path,
            f"GKE would create nodes of whole GPUs: the pool shares them ({pool.sharing.mode}), "
            "which a ComputeClass rule says only from GKE 1.35.2 (gpuSharing), not rendered",
            "remove auto_create, or share no GPUs on this pool",
        )
    if plugin != "managed":
        yield loc.error(
            path,
            f"nodes GKE creates run GKE's own device plugin; the spec installs {plugin}, whose "
            "nodes need labels a ComputeClass cannot give them",
            "remove auto_create, or use GKE's device plugin (addons.device_plugin: managed)",
        )
    if pool.labels or pool.taints:
        yield loc.error(
            path,
            "nodes GKE creates carry the class's label and taint, not the pool's own labels "
            "and taints",
            "remove auto_create, or the pool's labels and taints",
        )
