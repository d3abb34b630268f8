"""Checks only EKS needs: the AWS account block, VPCs and subnets, EC2 reservations and
Capacity Blocks, AMI types, EFA, and MIG through the GPU Operator."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import single_capacity
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import PoolGpu, version_tuple, workload_pools
from gpuplat.targets.eks import nodegroup

_AWS_ACCOUNT = re.compile(r"^\d{12}$")
_IAM_PRINCIPAL = re.compile(r"^arn:aws[a-z-]*:iam::\d{12}:(role|user)/[\w+=,.@/-]+$")
_KMS_KEY = re.compile(r"^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key|alias)/[\w/-]+$")
_VPC_ID = re.compile(r"^vpc-[0-9a-f]{8,17}$")
_SUBNET_ID = re.compile(r"^subnet-[0-9a-f]{8,17}$")
_EC2_TYPE = re.compile(r"^[a-z][a-z0-9-]*\.[a-z0-9]+$")
_EC2_RESERVATION = re.compile(r"^cr-[0-9a-f]{8,17}$")
VPC_PREFIXES = (16, 20)
"""vpc_cidr sizes gpuplat carves: 1/8 per zone for nodes and pods, the last 1/8 for public subnets."""
MAX_ZONES = 6


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


def cluster(
    spec: Spec, cluster: Cluster, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The account block, the control plane's version, the system nodes and the network."""
    if cluster.aws is not None:
        yield from _aws(cluster, (*base, "aws"), loc)
    version = cluster.kubernetes.version
    parsed = version_tuple(version) if version is not None else None
    if parsed is not None and version != f"{parsed[0]}.{parsed[1]}":
        yield loc.error(
            (*base, "kubernetes", "version"),
            f'EKS takes a major.minor Kubernetes version, not "{version}"',
            f'write "{parsed[0]}.{parsed[1]}" (EKS picks the patch release)',
        )
    system_type = cluster.system_pool.machine_type
    if system_type is not None and not _EC2_TYPE.match(system_type):
        yield loc.error(
            (*base, "system_pool", "machine_type"),
            f'"{system_type}" is not an EC2 instance type',
            "EKS system nodes need an EC2 type such as m6i.large",
        )
    if plugin == "managed":
        yield loc.error(
            ("addons", "device_plugin"),
            "EKS has no managed GPU device plugin",
            f'cluster "{cluster.name}" is on EKS; use auto or nvidia-device-plugin',
        )
    yield from _network(cluster, (*base, "network"), loc)
    yield from _weights(spec, cluster, loc)


def _weights(spec: Spec, cluster: Cluster, loc: Locator) -> Iterator[Diagnostic]:
    """Weights the pods of an EKS cluster can read: S3 (Pod Identity), Hugging Face, URLs."""
    for i, workload in enumerate(spec.workloads):
        pools = workload_pools(spec, workload).get(cluster.name, [])
        if len({p.efa for p in pools}) > 1:
            yield loc.warning(
                ("workloads", i, "pool" if workload.pool else "accelerator"),
                f'workload "{workload.name}" may run on EFA and non-EFA pools of cluster '
                f'"{cluster.name}", so it requests no vpc.amazonaws.com/efa and NCCL falls back '
                "to TCP even on the EFA nodes",
                "name one pool (workloads[].pool), or give all its pools efa: true",
            )
        if cluster.name in workload.clusters and workload.model.source.startswith("gs://"):
            yield loc.error(
                ("workloads", i, "model", "source"),
                f'workload "{workload.name}" reads gs:// weights on EKS cluster "{cluster.name}", '
                "where its pods have AWS credentials only (EKS Pod Identity)",
                "copy the weights to S3 (s3://bucket/path: gpuplat grants the workload read "
                "access to exactly that prefix), or serve them from hf:// or an https:// URL",
            )


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


def _network(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    net = cluster.network
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
    if not net.public_endpoint and not net.private_endpoint_networks:
        yield loc.warning(
            (*path, "public_endpoint"),
            "with public_endpoint false, only the cluster's own nodes reach the Kubernetes API: "
            "the platform and serving stages cannot be applied from CI or a workstation",
            "list the networks the runners are in (inside the VPC, or peered or connected to "
            "it) under network.private_endpoint_networks; gpuplat allows them on port 443",
        )


def _new_vpc(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    cidr = cluster.network.vpc_cidr
    assert cidr is not None
    try:
        prefix = ipaddress.IPv4Network(cidr, strict=True).prefixlen
    except ValueError:
        prefix = None  # reported as not a CIDR
    low, high = VPC_PREFIXES
    if prefix is not None and not low <= prefix <= high:
        yield loc.error(
            (*path, "vpc_cidr"),
            f"vpc_cidr must be a /{low} to /{high}, not /{prefix}",
            "every pod takes a VPC address (the VPC CNI): a /16 leaves room to grow",
        )
    zones = cluster.zones
    if len(zones) < 2 or len(zones) > MAX_ZONES:
        yield loc.error(
            (*path[:-1], "zones") if zones else (*path, "vpc_cidr"),
            f"a new VPC needs 2 to {MAX_ZONES} zones for its subnets; "
            f"the cluster lists {len(zones)}",
            f"EKS runs its control plane in at least two zones: e.g. zones: "
            f"[{cluster.region}a, {cluster.region}b]",
        )
    elif len(set(zones)) != len(zones):
        yield loc.error((*path[:-1], "zones"), "zones are listed more than once", "list each once")


def pool(
    cluster: Cluster, pool: NodePool, gpu: PoolGpu, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Reservations, zones of a new VPC, AMI types, EFA and MIG on one node group."""
    yield from _capacity(cluster, pool, base, loc)
    yield from nodegroup.check(cluster, pool, gpu, plugin, base, loc)
    for z, zone in enumerate(pool.zones or ()):
        if cluster.network.vpc_cidr is not None and cluster.zones and zone not in cluster.zones:
            yield loc.error(
                (*base, "zones", z),
                f'zone "{zone}" has no subnet in the new VPC of cluster "{cluster.name}"',
                f"use one of the cluster's zones ({', '.join(cluster.zones)}), or add it there",
            )
    if pool.image is not None and gpu.shape is not None:
        arm = gpu.shape.arch == "arm64"
        if arm != ("ARM_64" in pool.image):
            yield loc.error(
                (*base, "image"),
                f"{pool.image} does not match {pool.machine_type} ({gpu.shape.arch})",
                "pick the AMI type of the instance's architecture",
            )
    if pool.efa and gpu.shape is not None and not gpu.shape.efa:
        yield loc.error(
            (*base, "efa"),
            f"{pool.machine_type} does not support EFA",
            "use p4d/p5/g6e-class instances for EFA, or remove efa",
        )
    if pool.driver.install == "none" and pool.image is not None:
        yield loc.error(
            (*base, "image"),
            f"{pool.image} ships the NVIDIA driver, and driver.install is none",
            "remove image: with driver.install: none the nodes get the standard AL2023 AMI "
            "and the GPU Operator installs the driver; or set driver.install: managed",
        )
    if pool.sharing.mode == "mig" and plugin != "gpu-operator":
        yield loc.error(
            (*base, "sharing", "mode"),
            "MIG on EKS needs the NVIDIA GPU Operator (its MIG manager partitions the GPUs)",
            "set addons.device_plugin: gpu-operator",
        )


def _capacity(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """EC2 capacity reservations and Capacity Blocks for ML."""
    cap = single_capacity(pool)
    path = (*base, "capacity")
    if cap is None:
        return  # a ladder: its rungs are checked by the EKS target's check_ladder
    if cap.block and cap.type != "reservation":
        yield loc.error(
            (*path, "block"),
            "block: true describes a reservation, but the pool's type is " + cap.type,
            "set type: reservation and the capacity block id under reservation",
        )
    if cap.type != "reservation":
        return
    if cap.reservation is None:
        yield loc.error(
            (*path, "reservation"),
            "an EKS reservation pool needs the capacity reservation or capacity block id",
            'e.g. reservation: "cr-0123456789abcdef0"',
        )
        return
    if not _EC2_RESERVATION.match(cap.reservation):
        yield loc.error(
            (*path, "reservation"),
            f'"{cap.reservation}" is not an EC2 capacity reservation id',
            "capacity reservations and capacity blocks have ids like cr-0123456789abcdef0",
        )
    zones = pool.zones if pool.zones is not None else cluster.zones
    if len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set"
        yield loc.error(
            (*base, "zones") if pool.zones is not None else (*path, "reservation"),
            f"an EC2 capacity reservation is in one availability zone; pool has {have}",
            "set the pool's zones to the reservation's zone",
        )
    if cap.block and pool.autoscaling.min_nodes > 0:
        yield loc.warning(
            (*base, "autoscaling", "min_nodes"),
            f"capacity block nodes run only while the block is active; min_nodes "
            f"{pool.autoscaling.min_nodes} keeps the node group launching outside it",
            "set min_nodes: 0 and let the autoscaler add nodes while the block is active",
        )
