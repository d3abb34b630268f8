"""Semantic checks: everything a typed model cannot say on its own, all problems at once."""

from __future__ import annotations

from datetime import date

from gpuplat.spec.checks import address, clusters, environments, names, pools, settings, workloads
from gpuplat.spec.checks.reuse import ClusterChecks, pool_context
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec


def run_checks(
    spec: Spec, locator: Locator, today: date, reuse: ClusterChecks | None = None
) -> list[Diagnostic]:
    """Run every check on a validated spec; return every problem found, unsorted.

    ``today`` is the day the support calendar is read for (a minor past its cloud's support,
    a cluster in extended support).

    Workload checks skip pools that already have an error: arithmetic on a pool with an
    unknown shape or an invalid MIG profile would only repeat the same problem in other words.

    ``reuse`` holds the per-cluster problems of environments checked before in the same load;
    a cluster they share is not checked again.
    """
    reuse = reuse if reuse is not None else ClusterChecks()
    out: list[Diagnostic] = [*names.check(spec, locator), *environments.check(spec, locator)]
    out.extend(reuse.run("settings", settings.cluster_settings, spec, locator))
    out.extend(clusters.check(spec, locator))
    out.extend(reuse.run("pools", pools.cluster_pools, spec, locator, pool_context(spec, locator)))
    out.extend(address.subscriptions(spec, locator))
    out.extend(address.host_names(spec, locator))
    out.extend(clusters.calendar(spec, locator, today))
    broken: set[tuple[str, str]] = set()
    for diag in out:
        path = diag.path
        if diag.is_error and len(path) >= 4 and path[0] == "clusters" and path[2] == "node_pools":
            cluster = spec.clusters[int(path[1])]
            broken.add((cluster.name, cluster.node_pools[int(path[3])].name))
    out.extend(workloads.check(spec, locator, broken))
    return out
