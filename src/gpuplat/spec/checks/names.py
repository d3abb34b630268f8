"""Names: valid for the cloud that will carry them, and unique where they must be."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec

_RFC1035 = r"[a-z]([-a-z0-9]{0,%d}[a-z0-9])?"

# (pattern, max length, what it allows) per cloud and kind of object.
CLUSTER_NAMES = {
    "gke": (
        re.compile(f"^{_RFC1035 % 38}$"),
        40,
        "lowercase letters, digits and dashes; starts with a letter",
    ),
    "eks": (
        re.compile(r"^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$"),
        100,
        "letters, digits, - and _; starts with a letter or digit",
    ),
    "aks": (
        re.compile(r"^[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$"),
        63,
        "letters, digits, - and _; starts and ends with a letter or digit",
    ),
}
POOL_NAMES = {
    "gke": (
        re.compile(f"^{_RFC1035 % 38}$"),
        40,
        "lowercase letters, digits and dashes; starts with a letter",
    ),
    "eks": (
        re.compile(r"^[0-9A-Za-z][A-Za-z0-9_-]{0,62}$"),
        63,
        "letters, digits, - and _; starts with a letter or digit",
    ),
    "aks": (
        re.compile(r"^[a-z][a-z0-9]{0,11}$"),
        12,
        "lowercase letters and digits; starts with a letter",
    ),
}
PROJECT = (
    re.compile(f"^{_RFC1035 % 28}$"),
    30,
    "lowercase letters, digits and dashes; starts with a letter",
)
ENVIRONMENT = (
    re.compile(f"^{_RFC1035 % 18}$"),
    20,
    "lowercase letters, digits and dashes; starts with a letter",
)
WORKLOAD = (
    re.compile(f"^{_RFC1035 % 38}$"),
    40,
    "lowercase letters, digits and dashes; starts with a letter (a DNS label)",
)


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    yield from _name(loc, ("project",), spec.project, "project name", PROJECT)
    for i, env in enumerate(spec.environments):
        yield from _name(
            loc, ("environments", i, "name"), env.name, "environment name", ENVIRONMENT
        )
    yield from _unique(
        loc,
        "environment",
        (("environments", i, "name") for i in range(len(spec.environments))),
        [e.name for e in spec.environments],
    )
    for i, cluster in enumerate(spec.clusters):
        base = ("clusters", i)
        yield from _name(
            loc,
            (*base, "name"),
            cluster.name,
            f"{cluster.cloud.upper()} cluster name",
            CLUSTER_NAMES[cluster.cloud],
        )
        for j, pool in enumerate(cluster.node_pools):
            yield from _name(
                loc,
                (*base, "node_pools", j, "name"),
                pool.name,
                f"{cluster.cloud.upper()} node pool name",
                POOL_NAMES[cluster.cloud],
            )
        yield from _unique(
            loc,
            "node pool",
            ((*base, "node_pools", j, "name") for j in range(len(cluster.node_pools))),
            [p.name for p in cluster.node_pools],
            where=f' in cluster "{cluster.name}"',
        )
    yield from _unique(
        loc,
        "cluster",
        (("clusters", i, "name") for i in range(len(spec.clusters))),
        [c.name for c in spec.clusters],
    )
    for i, workload in enumerate(spec.workloads):
        yield from _name(loc, ("workloads", i, "name"), workload.name, "workload name", WORKLOAD)
    yield from _unique(
        loc,
        "workload",
        (("workloads", i, "name") for i in range(len(spec.workloads))),
        [w.name for w in spec.workloads],
    )


def _name(
    loc: Locator, path: KeyPath, value: str, what: str, rule: tuple[re.Pattern[str], int, str]
) -> Iterator[Diagnostic]:
    pattern, limit, allowed = rule
    if len(value) > limit:
        yield loc.error(
            path,
            f'{what} "{value}" is {len(value)} characters; at most {limit} are allowed',
            "use a shorter name",
        )
    elif not pattern.match(value):
        yield loc.error(
            path, f'{what} "{value}" is not valid', f"use {allowed} (at most {limit} characters)"
        )


def _unique(
    loc: Locator, what: str, paths: Iterable[KeyPath], values: list[str], where: str = ""
) -> Iterator[Diagnostic]:
    seen: dict[str, KeyPath] = {}
    for path, value in zip(paths, values, strict=True):
        if value in seen:
            first = loc.mark(seen[value])
            yield loc.error(
                path,
                f'duplicate {what} name "{value}"{where} (first at line {first.line})',
                "names must be unique; rename one",
            )
        else:
            seen[value] = path
