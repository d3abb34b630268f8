"""Clusters: region and zones, the account block, versions, networks, system pools; then the
checks only the cluster's cloud needs (its target's)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from datetime import date

from gpuplat import catalog
from gpuplat.addons import plan_addons
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.spec.resolve import version_tuple
from gpuplat.targets import device_plugin, target


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    for i, cluster in enumerate(spec.clusters):
        yield from _cluster(spec, cluster, ("clusters", i), loc)


def calendar(spec: Spec, loc: Locator, today: date) -> Iterator[Diagnostic]:
    """Each cluster and the charts its add-on plan installs against its cloud's support
    calendar on ``today`` (its target's checks)."""
    for i, cluster in enumerate(spec.clusters):
        charts = plan_addons(spec, cluster).charts()
        yield from target(cluster.cloud).check_calendar(
            cluster, ("clusters", i), loc, today, charts
        )


def _cluster(spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    cloud = target(cluster.cloud)
    if cloud.account_needed and getattr(cluster, cloud.account) is None:
        yield loc.error(
            (*base, cloud.account),
            f"a {cloud.title} cluster needs its {cloud.account} block",
            cloud.account_example,
        )
    if not cloud.region_pattern.match(cluster.region):
        yield loc.error(
            (*base, "region"),
            f'"{cluster.region}" is not a {cloud.title} region',
            f"regions look like {cloud.example_region}",
        )
    for z, zone in enumerate(cluster.zones):
        if not cloud.zone_ok(cluster.region, zone):
            yield loc.error(
                (*base, "zones", z),
                f'zone "{zone}" is not in region {cluster.region}',
                cloud.zone_hint(cluster.region),
            )
    yield from _kubernetes(spec, cluster, base, loc)
    yield from _cidrs(cluster, (*base, "network"), loc)
    if cluster.system_pool.min_nodes > cluster.system_pool.max_nodes:
        yield loc.error(
            (*base, "system_pool", "min_nodes"),
            f"system_pool.min_nodes ({cluster.system_pool.min_nodes}) is more than max_nodes ({cluster.system_pool.max_nodes})",
        )
    if not cluster.node_pools:
        yield loc.warning(
            (*base, "name"),
            f'cluster "{cluster.name}" has no GPU node pools',
            "add one under node_pools",
        )
    yield from cloud.check_cluster(spec, cluster, base, loc)


def _kubernetes(spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    k8s = cluster.kubernetes
    path = (*base, "kubernetes")
    parsed = None
    if k8s.version is not None:
        parsed = version_tuple(k8s.version)
        if parsed is None:
            yield loc.error(
                (*path, "version"),
                f'"{k8s.version}" is not a Kubernetes version',
                'write "1.34" (quoted)',
            )
    if device_plugin(spec, cluster) == "dra":
        floor = catalog.feature_floor("k8s_dra_v1")
        needed = version_tuple(floor.version)
        if parsed is None or (needed is not None and parsed < needed):
            have = f"version {k8s.version}" if k8s.version else "no kubernetes.version"
            yield loc.error(
                (*path, "version") if k8s.version else ("addons", "device_plugin"),
                f'Dynamic Resource Allocation needs Kubernetes >= {floor.version}; cluster "{cluster.name}" has {have}',
                f'set clusters[].kubernetes.version to "{floor.version}" or later, or choose another device_plugin',
            )


def _cidrs(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    net = cluster.network
    cidrs: list[tuple[KeyPath, str]] = []
    if net.control_plane_cidr is not None:
        cidrs.append(((*path, "control_plane_cidr"), net.control_plane_cidr))
    if net.vpc_cidr is not None:
        cidrs.append(((*path, "vpc_cidr"), net.vpc_cidr))
    cidrs.extend(
        ((*path, "authorized_networks", k, "cidr"), a.cidr)
        for k, a in enumerate(net.authorized_networks)
    )
    cidrs.extend(
        ((*path, "private_endpoint_networks", k, "cidr"), a.cidr)
        for k, a in enumerate(net.private_endpoint_networks)
    )
    for cpath, text in cidrs:
        try:
            ipaddress.IPv4Network(text, strict=True)
        except ValueError as exc:
            yield loc.error(
                cpath,
                f'"{text}" is not an IPv4 CIDR: {exc}',
                "write it like 10.0.0.0/16 with the host bits zero",
            )
