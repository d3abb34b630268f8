"""Names: valid for the cloud that will carry them, and unique where they must be."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec
from gpuplat.targets import target
from gpuplat.targets.base import NameRule

_RFC1035 = r"[a-z]([-a-z0-9]{0,%d}[a-z0-9])?"

PROJECT = NameRule(
    re.compile(f"^{_RFC1035 % 28}$"),
    30,
    "lowercase letters, digits and dashes; starts with a letter",
)
ENVIRONMENT = NameRule(
    re.compile(f"^{_RFC1035 % 18}$"),
    20,
    "lowercase letters, digits and dashes; starts with a letter",
)
WORKLOAD = NameRule(
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
        cloud = target(cluster.cloud)
        yield from _name(
            loc, (*base, "name"), cluster.name, f"{cloud.title} cluster name", cloud.cluster_names
        )
        for j, pool in enumerate(cluster.node_pools):
            yield from _name(
                loc,
                (*base, "node_pools", j, "name"),
                pool.name,
                f"{cloud.title} node pool name",
                cloud.pool_names,
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
    loc: Locator, path: KeyPath, value: str, what: str, rule: NameRule
) -> Iterator[Diagnostic]:
    pattern, limit, allowed = rule.pattern, rule.limit, rule.allowed
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
