"""Clusters: accounts, regions, zones, versions, networks and the add-ons they can run."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

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
_IAM_PRINCIPAL = re.compile(r"^arn:aws[a-z-]*:iam::\d{12}:(role|user)/[\w+=,.@/-]+$")
_KMS_KEY = re.compile(r"^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key|alias)/[\w/-]+$")
_VPC_ID = re.compile(r"^vpc-[0-9a-f]{8,17}$")
_SUBNET_ID = re.compile(r"^subnet-[0-9a-f]{8,17}$")
_EC2_TYPE = re.compile(r"^[a-z][a-z0-9-]*\.[a-z0-9]+$")
EKS_VPC_PREFIXES = (16, 20)
"""vpc_cidr sizes gpuplat carves: 1/8 per zone for nodes and pods, the last 1/8 for public subnets."""
EKS_MAX_ZONES = 6


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
    system_type = cluster.system_pool.machine_type
    if cloud == "eks" and system_type is not None and not _EC2_TYPE.match(system_type):
        yield loc.error(
            (*base, "system_pool", "machine_type"),
            f'"{system_type}" is not an EC2 instance type',
            "EKS system nodes need an EC2 type such as m6i.large",
        )
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
    if cluster.cloud == "eks" and cluster.aws is not None:
        yield from _aws(cluster, (*base, "aws"), loc)


def _aws(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    aws = cluster.aws
    assert aws is not None
    if aws.account_id is not None and not _AWS_ACCOUNT.match(aws.account_id):
        yield loc.error(
            (*path, "account_id"),
            f'"{aws.account_id}" is not a 12-digit AWS account id',
            'quote it so leading zeros stay: "012345678901"',
        )
    if aws.endpoint is not None:
        problem = endpoint_problem(aws.endpoint)
        if problem:
            yield loc.error(
                (*path, "endpoint"),
                f'aws.endpoint "{aws.endpoint}" is not an http(s) URL: {problem}',
                "e.g. http://localhost:4566 (LocalStack) or http://127.0.0.1:5000 (moto)",
            )
        elif aws.account_id is not None:
            yield loc.warning(
                (*path, "account_id"),
                "account_id is not enforced while aws.endpoint is set",
                "an emulator has no real account: the provider skips the account lookup, so "
                "it cannot refuse other accounts; set account_id where the endpoint is unset",
            )
    for k, arn in enumerate(aws.admins):
        if not _IAM_PRINCIPAL.match(arn):
            yield loc.error(
                (*path, "admins", k),
                f'"{arn}" is not an IAM role or user ARN',
                "e.g. arn:aws:iam::123456789012:role/platform-admins",
            )
    if aws.kms_key_arn is not None and not _KMS_KEY.match(aws.kms_key_arn):
        yield loc.error(
            (*path, "kms_key_arn"),
            f'"{aws.kms_key_arn}" is not a KMS key ARN',
            "e.g. arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        )


def endpoint_problem(url: str) -> str | None:
    """Why ``url`` cannot be an AWS API endpoint, or None."""
    if url != url.strip() or any(c.isspace() for c in url):
        return "it contains white space"
    parsed = urlsplit(url)
    if parsed.scheme not in ("http", "https"):
        return "it must start with http:// or https://"
    if not parsed.hostname:
        return "it has no host"
    try:
        _ = parsed.port
    except ValueError:
        return "its port is not a number from 0 to 65535"
    if parsed.query or parsed.fragment:
        return "it must not have a query or fragment"
    return None


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
    if parsed is not None and cluster.cloud == "eks" and k8s.version != f"{parsed[0]}.{parsed[1]}":
        yield loc.error(
            (*path, "version"),
            f'EKS takes a major.minor Kubernetes version, not "{k8s.version}"',
            f'write "{parsed[0]}.{parsed[1]}" (EKS picks the patch release)',
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
    if cluster.cloud != "eks" and not net.public_endpoint:
        yield loc.error(
            (*path, "public_endpoint"),
            "public_endpoint is an EKS setting",
            "remove it",
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
        yield from _eks_network(cluster, path, loc)


def _eks_network(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    net = cluster.network
    if net.network is None and net.vpc_cidr is None:
        if net.subnet_ids:
            yield loc.error(
                (*path, "subnet_ids"),
                "subnet_ids need network, the id of the VPC they are in",
                "add network: vpc-...",
            )
        else:
            yield loc.error(
                path,
                f'EKS cluster "{cluster.name}" needs a network',
                "set network.vpc_cidr (gpuplat creates a VPC) or network.network with "
                "network.subnet_ids (an existing VPC)",
            )
    if net.network is not None and not _VPC_ID.match(net.network):
        yield loc.error(
            (*path, "network"),
            f'"{net.network}" is not a VPC id',
            "EKS network is the id of an existing VPC, e.g. vpc-0123456789abcdef0",
        )
    for k, subnet in enumerate(net.subnet_ids):
        if not _SUBNET_ID.match(subnet):
            yield loc.error(
                (*path, "subnet_ids", k),
                f'"{subnet}" is not a subnet id',
                "e.g. subnet-0123456789abcdef0",
            )
    if net.network is not None and len(net.subnet_ids) == 1:
        yield loc.error(
            (*path, "subnet_ids"),
            "EKS needs subnets in at least two availability zones; one is given",
            "list private subnets of two or more zones",
        )
    if net.vpc_cidr is not None:
        yield from _new_vpc(cluster, path, loc)
    if not net.public_endpoint and net.authorized_networks:
        yield loc.error(
            (*path, "authorized_networks"),
            "authorized_networks limit the public endpoint, and public_endpoint is false",
            "remove authorized_networks, or set public_endpoint: true",
        )


def _new_vpc(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    cidr = cluster.network.vpc_cidr
    assert cidr is not None
    try:
        prefix = ipaddress.IPv4Network(cidr, strict=True).prefixlen
    except ValueError:
        prefix = None  # reported as not a CIDR
    low, high = EKS_VPC_PREFIXES
    if prefix is not None and not low <= prefix <= high:
        yield loc.error(
            (*path, "vpc_cidr"),
            f"vpc_cidr must be a /{low} to /{high}, not /{prefix}",
            "every pod takes a VPC address (the VPC CNI): a /16 leaves room to grow",
        )
    zones = cluster.zones
    if len(zones) < 2 or len(zones) > EKS_MAX_ZONES:
        yield loc.error(
            (*path[:-1], "zones") if zones else (*path, "vpc_cidr"),
            f"a new VPC needs 2 to {EKS_MAX_ZONES} zones for its subnets; "
            f"the cluster lists {len(zones)}",
            f"EKS runs its control plane in at least two zones: e.g. zones: "
            f"[{cluster.region}a, {cluster.region}b]",
        )
    elif len(set(zones)) != len(zones):
        yield loc.error((*path[:-1], "zones"), "zones are listed more than once", "list each once")


def _zone_hint(cloud: str, region: str) -> str:
    if cloud == "gke":
        return f"GKE zones look like {region}-a"
    if cloud == "eks":
        return f"EKS zones look like {region}a"
    return "AKS zones are 1, 2 and 3"
