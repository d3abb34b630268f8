"""Clusters: accounts, regions, zones, versions, networks and the add-ons they can run."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.spec.resolve import device_plugin, version_tuple

_REGION = {
    "gke": re.compile(r"^[a-z]+-[a-z]+\d+$"),
    "eks": re.compile(r"^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d+$"),
    "aks": re.compile(r"^[a-z][a-z0-9]+$"),
}
_GCP_PROJECT = re.compile(r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$")
_AWS_ACCOUNT = re.compile(r"^\d{12}$")
_GUID = re.compile(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")
_ACCOUNT_BLOCK = {"gke": "gcp", "eks": "aws", "aks": "azure"}


def zone_ok(cloud: str, region: str, zone: str) -> bool:
    """A zone belongs to the region (GKE us-central1-a, EKS us-east-1a, AKS 1/2/3)."""
    if cloud == "gke":
        return re.fullmatch(re.escape(region) + r"-[a-z]", zone) is not None
    if cloud == "eks":
        return re.fullmatch(re.escape(region) + r"[a-z](-[a-z0-9-]+)?", zone) is not None
    return zone in {"1", "2", "3"}


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    for i, cluster in enumerate(spec.clusters):
        yield from _cluster(spec, cluster, ("clusters", i), loc)


def _cluster(spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    cloud = cluster.cloud
    yield from _accounts(cluster, base, loc)
    if not _REGION[cloud].match(cluster.region):
        example = {"gke": "us-central1", "eks": "us-east-1", "aks": "eastus"}[cloud]
        yield loc.error(
            (*base, "region"),
            f'"{cluster.region}" is not a {cloud.upper()} region',
            f"regions look like {example}",
        )
    for z, zone in enumerate(cluster.zones):
        if not zone_ok(cloud, cluster.region, zone):
            yield loc.error(
                (*base, "zones", z),
                f'zone "{zone}" is not in region {cluster.region}',
                _zone_hint(cloud, cluster.region),
            )
    if cloud == "gke" and not cluster.regional and not cluster.zones:
        yield loc.error(
            (*base, "regional"),
            "a zonal cluster needs a zone",
            "list its zone under zones (the first zone hosts the control plane)",
        )
    if cloud != "gke" and not cluster.regional:
        yield loc.error(
            (*base, "regional"), "regional: false is a GKE setting", "remove it", at_key=True
        )
    yield from _kubernetes(spec, cluster, base, loc)
    yield from _network(cluster, base, loc)
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
    plugin = device_plugin(spec, cluster)
    if plugin == "managed" and cloud == "eks":
        yield loc.error(
            ("addons", "device_plugin"),
            "EKS has no managed GPU device plugin",
            f'cluster "{cluster.name}" is on EKS; use auto or nvidia-device-plugin',
        )


def _accounts(cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    wanted = _ACCOUNT_BLOCK[cluster.cloud]
    for block in ("gcp", "aws", "azure"):
        if block != wanted and getattr(cluster, block) is not None:
            yield loc.error(
                (*base, block),
                f'"{block}" does not apply to a {cluster.cloud.upper()} cluster',
                f"use {wanted}: instead",
                at_key=True,
            )
    if cluster.cloud == "gke":
        if cluster.gcp is None:
            yield loc.error(
                (*base, "gcp"),
                "a GKE cluster needs gcp.project",
                "add gcp: {project: <project id>}",
            )
        elif not _GCP_PROJECT.match(cluster.gcp.project):
            yield loc.error(
                (*base, "gcp", "project"),
                f'"{cluster.gcp.project}" is not a GCP project id',
                "6-30 lowercase letters, digits and dashes, starting with a letter",
            )
    if cluster.cloud == "aks":
        if cluster.azure is None:
            yield loc.error(
                (*base, "azure"),
                "an AKS cluster needs azure.subscription_id and azure.resource_group",
            )
        elif not _GUID.match(cluster.azure.subscription_id):
            yield loc.error((*base, "azure", "subscription_id"), "subscription_id is not a GUID")
    if (
        cluster.cloud == "eks"
        and cluster.aws is not None
        and cluster.aws.account_id is not None
        and not _AWS_ACCOUNT.match(cluster.aws.account_id)
    ):
        yield loc.error(
            (*base, "aws", "account_id"),
            f'"{cluster.aws.account_id}" is not a 12-digit AWS account id',
            'quote it so leading zeros stay: "012345678901"',
        )


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
    if k8s.release_channel is not None and cluster.cloud != "gke":
        yield loc.error(
            (*path, "release_channel"),
            "release channels are a GKE feature",
            "set kubernetes.version instead",
            at_key=True,
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


def _network(cluster: Cluster, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    net = cluster.network
    path = (*base, "network")
    cidrs: list[tuple[KeyPath, str]] = []
    if net.control_plane_cidr is not None:
        cidrs.append(((*path, "control_plane_cidr"), net.control_plane_cidr))
    if net.vpc_cidr is not None:
        cidrs.append(((*path, "vpc_cidr"), net.vpc_cidr))
    cidrs.extend(
        ((*path, "authorized_networks", k, "cidr"), a.cidr)
        for k, a in enumerate(net.authorized_networks)
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
    if cluster.cloud == "gke":
        if net.control_plane_cidr is not None:
            if not net.private_nodes:
                yield loc.error(
                    (*path, "control_plane_cidr"),
                    "control_plane_cidr is only used with private_nodes: true",
                    "set private_nodes: true or remove it",
                )
            elif not net.control_plane_cidr.endswith("/28"):
                yield loc.error(
                    (*path, "control_plane_cidr"),
                    "GKE needs a /28 range for the control plane",
                    "e.g. 172.16.0.0/28",
                )
        elif net.private_nodes:
            yield loc.error(
                (*path, "private_nodes"),
                "private GKE nodes need control_plane_cidr",
                "add network.control_plane_cidr: 172.16.0.0/28 (a /28 not used elsewhere)",
            )
        for key in ("subnet_ids", "vpc_cidr"):
            if getattr(net, key):
                yield loc.error(
                    (*path, key),
                    f"{key} is an EKS setting",
                    "GKE uses network and subnetwork",
                    at_key=True,
                )
    elif cluster.cloud == "eks":
        if net.subnetwork is not None or net.control_plane_cidr is not None:
            key = "subnetwork" if net.subnetwork is not None else "control_plane_cidr"
            yield loc.error(
                (*path, key),
                f"{key} is a GKE setting",
                "EKS uses network (VPC id) with subnet_ids, or vpc_cidr",
                at_key=True,
            )
        if net.network is not None and not net.subnet_ids:
            yield loc.error(
                (*path, "subnet_ids"),
                "an existing VPC needs subnet_ids",
                "list the private subnets for the cluster and nodes",
            )
        if net.network is not None and net.vpc_cidr is not None:
            yield loc.error(
                (*path, "vpc_cidr"),
                "vpc_cidr creates a VPC; network names an existing one",
                "keep one of them",
            )


def _zone_hint(cloud: str, region: str) -> str:
    if cloud == "gke":
        return f"GKE zones look like {region}-a"
    if cloud == "eks":
        return f"EKS zones look like {region}a"
    return "AKS zones are 1, 2 and 3"
