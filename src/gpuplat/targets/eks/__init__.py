"""EKS: Amazon EKS clusters, managed GPU node groups on EC2, and the add-ons EKS lacks."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from typing import TYPE_CHECKING, ClassVar

from gpuplat import catalog
from gpuplat.catalog import ChartPin, Shape
from gpuplat.hcl.writer import Raw
from gpuplat.render.views import InfraPart
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets import expander, support
from gpuplat.targets.base import (
    KubeAuth,
    LadderPlatform,
    NameRule,
    ResolvedPlugin,
    Setting,
    Target,
)
from gpuplat.targets.eks import calendar, checks, fabric, infra, ladder, metrics, node
from gpuplat.targets.fabric import GroupFabric
from gpuplat.targets.node_reserve import EphemeralDisk, Reserve
from gpuplat.targets.planvalues import PlannedPool
from gpuplat.targets.scaling import MetricsQuery

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec
    from gpuplat.spec.resolve import PoolGpu

_NO_CREDENTIALS = (
    "No valid credential sources found",
    "failed to refresh cached credentials",
    "NoCredentialProviders",
    "get credentials: failed to refresh",
)


class EKS(Target):
    interruption_notices: ClassVar[Mapping[str, tuple[int, str]]] = {
        "spot": (
            120,
            "EC2 sends a Spot interruption notice 2 minutes before it stops the instance (EC2 Spot instance interruption notices)",
        )
    }
    cloud = "eks"
    title = "EKS"
    # gpuplat installs no AWS Load Balancer Controller: EKS's in-tree service controller
    # (cloud-provider-aws) makes the load balancer. An NLB, internal on request; the LB
    # controller's aws-load-balancer-scheme is not read by it (kubernetes-sigs.github.io/
    # aws-load-balancer-controller, guide/service/annotations: "not an accurate reference for
    # the services reconciled by the in-tree controller").
    load_balancer: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "internal": {
            "service.beta.kubernetes.io/aws-load-balancer-type": "nlb",
            "service.beta.kubernetes.io/aws-load-balancer-internal": "true",
        },
        "external": {"service.beta.kubernetes.io/aws-load-balancer-type": "nlb"},
    }
    # The NLB is reached at a host name (its IPs are AWS's, one per subnet, and may change).
    address_is_ip = False
    account = "aws"
    example_region = "us-east-1"
    region_pattern = re.compile(r"^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d+$")
    cluster_names = NameRule(
        re.compile(r"^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$"),
        100,
        "letters, digits, - and _; starts with a letter or digit",
    )
    pool_names = NameRule(
        re.compile(r"^[0-9A-Za-z][A-Za-z0-9_-]{0,62}$"),
        63,
        "letters, digits, - and _; starts with a letter or digit",
    )
    shape_kind = "eks_shape"
    shape_word = "EC2 instance type"
    images = (
        "AL2023_x86_64_NVIDIA",
        "AL2023_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA",
        "BOTTLEROCKET_ARM_64_NVIDIA",
    )
    disk_types = ("gp2", "gp3", "io1", "io2")
    system_disk = (50, "gp3")  # eks-cluster: system_pool.disk_size_gb's default, a gp3 volume

    def nat_gateways(self, cluster: Cluster, protected: bool) -> int:
        # eks-network, only in a VPC gpuplat creates: one a zone when protected, else one.
        if cluster.network.vpc_cidr is None:
            return 0
        return max(1, len(cluster.zones)) if protected else 1

    capacity_types = frozenset({"on-demand", "spot", "reservation"})
    capacity_alternative = "use type: reservation with an EC2 capacity block"
    settings = (
        Setting(("network", "subnet_ids")),
        Setting(("network", "vpc_cidr")),
        Setting(("network", "public_endpoint")),
        Setting(("network", "private_endpoint_networks")),
        Setting(("node_pools", "*", "efa")),
        Setting(("node_pools", "*", "extra_machine_types")),
        Setting(("node_pools", "*", "capacity", "block")),
    )
    default_device_plugin = "nvidia-device-plugin"
    managed_device_plugin = False
    cluster_autoscaler = True
    local_volume_annotation = True  # the chart's autoscaler: skip-nodes-with-local-storage=true

    def managed_query(self, cluster: Cluster) -> MetricsQuery | None:
        """Amazon Managed Service for Prometheus (eks-managed-prometheus in the infra stage),
        queried by KEDA's operator with SigV4 through EKS Pod Identity."""
        return metrics.query(cluster)

    providers: ClassVar[Mapping[str, tuple[str, str]]] = {"aws": ("hashicorp/aws", ">= 5.100, < 7")}
    infra_provider = "aws"
    infracost_usage_key = "instances"
    price_notes: ClassVar[Mapping[str, str]] = {
        "spot": "EC2 spot prices were sampled for four instance types only"
    }
    cluster_resource = "aws_eks_cluster"
    pool_resource = "aws_eks_node_group"

    def zone_ok(self, region: str, zone: str) -> bool:
        return re.fullmatch(re.escape(region) + r"[a-z](-[a-z0-9-]+)?", zone) is not None

    def zone_hint(self, region: str) -> str:
        return f"EKS zones look like {region}a"

    def check_cluster(
        self, spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        return checks.cluster(spec, cluster, self.device_plugin(spec), base, loc)

    def check_pool(
        self,
        spec: Spec,
        cluster: Cluster,
        pool: NodePool,
        gpu: PoolGpu,
        base: KeyPath,
        loc: Locator,
    ) -> Iterator[Diagnostic]:
        return checks.pool(cluster, pool, gpu, self.device_plugin(spec), base, loc)

    def kubernetes_minor(self, cluster: Cluster) -> str:
        return infra.kubernetes_version(cluster)

    def check_calendar(
        self,
        cluster: Cluster,
        base: KeyPath,
        loc: Locator,
        today: date,
        charts: Mapping[str, ChartPin],
    ) -> Iterator[Diagnostic]:
        minor = support.minor_of(self.kubernetes_minor(cluster))
        if minor is None:
            return iter(())  # not a version: the version checks say so
        return calendar.check(cluster, minor, charts, base, loc, today)

    def fee_tier(self, cluster: Cluster, today: date) -> str | None:
        return _tier(self.kubernetes_minor(cluster), today)

    def planned_fee_tier(self, values: Mapping[str, object], today: date) -> str | None:
        version = values.get("version")
        return _tier(version, today) if isinstance(version, str) else None

    def cloud_pool_labels(self, pool: NodePool, plugin: ResolvedPlugin) -> dict[str, str]:
        return node.accelerator_labels(pool)

    def replica_devices(self, pools: list[NodePool], gpus: int) -> dict[str, str]:
        return node.replica_efa(pools, gpus)

    def group_fabric(self, pools: list[NodePool]) -> GroupFabric:
        return fabric.group_pod(pools)

    def group_fabric_note(self, pool: NodePool) -> tuple[str, str] | None:
        return fabric.note(pool)

    def group_topology(self, pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
        return fabric.topology(pools)

    def own_device_plugin(self, pool: NodePool) -> bool:
        return node.bottlerocket(pool)

    def disk_write_mibps(self, pool: NodePool) -> float | None:
        # The eks-gpu-node-group module provisions gp3 at 500 MiB/s (gp3's most is 1,000);
        # other volume types' rates depend on size and IOPS, which gpuplat does not set.
        return node.GP3_THROUGHPUT_MIBPS if (pool.disk.type or "gp3") == "gp3" else None

    def pool_update_warning(self, before: object, after: object) -> str | None:
        # A reserved group cannot surge at all; any other group surges GPU nodes and drains.
        return node.reserved_update_warning(before, after) or node.surge_update_warning(
            before, after
        )

    def infra(self, env: EnvSpec, cluster: Cluster) -> InfraPart:
        return infra.part(self, env, cluster)

    ladder_kinds = ladder.KINDS

    def check_ladder(
        self, spec: Spec, cluster: Cluster, ladder_: Ladder, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        return ladder.check(cluster, ladder_, base, loc)

    def ladder_platform(self, spec: Spec, cluster: Cluster) -> LadderPlatform:
        return expander.priorities([self.ladder(cluster, pool) for pool in cluster.node_pools])

    def group_pattern(self, cluster: Cluster, group: str) -> Raw:
        return ladder.group_pattern(cluster.name, group)

    def kube_auth(self, cluster: Cluster) -> KubeAuth:
        # A short-lived token from the AWS CLI, never a token stored in state.
        return KubeAuth(
            exec_command="aws",
            exec_args=(
                "eks",
                "get-token",
                "--cluster-name",
                cluster.name,
                "--region",
                cluster.region,
            ),
        )

    def planned_pool(
        self, values: Mapping[str, object], zones: int | None = None
    ) -> PlannedPool | None:
        return infra.read_pool(values)

    def node_features(self, spec: Spec, cluster: Cluster, pool: NodePool) -> frozenset[str]:
        return node.MODULE_FEATURES

    def kubelet_reserve(self, shape: Shape) -> Reserve | None:
        return node.kubelet_reserve(shape)

    def ephemeral_disk(self, pool: NodePool) -> EphemeralDisk | None:
        size = pool.disk.size_gb
        return EphemeralDisk.boot(size, node.ephemeral_reserve_gb(size))

    def credentials_hint(self, text: str) -> str | None:
        if not any(marker in text for marker in _NO_CREDENTIALS):
            return None
        part = (
            "the S3 state backend (terraform init)"
            if "backend" in text.lower()
            else "the aws provider"
        )
        return (
            f"{part} found no AWS credentials: set AWS_PROFILE (after `aws sso login`), or "
            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; in CI, assume a role through OIDC "
            "(e.g. aws-actions/configure-aws-credentials) rather than storing keys"
        )


def _tier(version: str, today: date) -> str | None:
    """EKS bills the extended fee while a minor is in extended support."""
    minor = support.minor_of(version)
    if minor is None:
        return None
    return "extended" if catalog.support("eks", minor, today).phase == "extended" else None
