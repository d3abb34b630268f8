"""Semantic checks: everything a typed model cannot say on its own, all problems at once."""

from __future__ import annotations

from datetime import date

from gpuplat.spec.checks import address, clusters, environments, names, pools, settings, workloads
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec

_CHECKS = (
    names.check,
    environments.check,
    settings.check,
    clusters.check,
    pools.check,
    address.subscriptions,
)


def run_checks(spec: Spec, locator: Locator, today: date) -> list[Diagnostic]:
    """Run every check on a validated spec; return every problem found, unsorted.

    ``today`` is the day the support calendar is read for (a minor past its cloud's support,
    a cluster in extended support).

    Workload checks skip pools that already have an error: arithmetic on a pool with an
    unknown shape or an invalid MIG profile would only repeat the same problem in other words.
    """
    out: list[Diagnostic] = []
    for check in _CHECKS:
        out.extend(check(spec, locator))
    out.extend(clusters.calendar(spec, locator, today))
    broken: set[tuple[str, str]] = set()
    for diag in out:
        path = diag.path
        if diag.is_error and len(path) >= 4 and path[0] == "clusters" and path[2] == "node_pools":
            cluster = spec.clusters[int(path[1])]
            broken.add((cluster.name, cluster.node_pools[int(path[3])].name))
    out.extend(workloads.check(spec, locator, broken))
    return out
