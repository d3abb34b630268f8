"""AKS: Azure Kubernetes Service clusters, GPU node pools on Azure VM sizes, AKS's managed GPU
driver and MIG partitioning, and workload identities for weights on Azure Blob."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from typing import TYPE_CHECKING, ClassVar, Literal

from gpuplat import catalog
from gpuplat.catalog import ChartPin, Shape
from gpuplat.render.views import InfraPart
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder, LadderRung, capacity_kinds
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Taint
from gpuplat.targets import expander
from gpuplat.targets.aks import calendar, checks, fabric, infra, ladder, metrics, node
from gpuplat.targets.base import (
    SYSTEM_GROUP,
    KubeAuth,
    LadderPlatform,
    NameRule,
    ResolvedPlugin,
    Setting,
    Target,
)
from gpuplat.targets.fabric import GroupFabric
from gpuplat.targets.node_reserve import EphemeralDisk, Reserve
from gpuplat.targets.planvalues import PlannedPool
from gpuplat.targets.scaling import MetricsQuery

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec
    from gpuplat.spec.resolve import PoolGpu

AKS_SERVER_ID = "6dae42f8-4368-4678-94ff-3960e28e3630"
"""The Microsoft Entra application every AKS API server accepts tokens for (kubelogin's
--server-id)."""
_NO_CREDENTIALS = (
    "Please run 'az login'",
    "run `az login`",
    "az login",
    "DefaultAzureCredential",
    "unable to build authorizer",
    "could not configure AzureCli Authorizer",
)


class AKS(Target):
    interruption_notices: ClassVar[Mapping[str, tuple[int, str]]] = {
        "spot": (
            30,
            "Azure's Scheduled Events give at least 30 s notice before evicting a Spot VM (Azure Spot VMs; Scheduled Events Preempt)",
        )
    }
    cloud = "aks"
    title = "AKS"
    # cloud-provider-azure, topics/loadbalancer: azure-load-balancer-internal "true" makes the
    # load balancer internal (public when unset). Its probe of a Service port (pkg/provider
    # azure_loadbalancer_healthprobe.go) takes the protocol from the port's own annotation,
    # then the port's appProtocol, then azure-load-balancer-health-probe-protocol, else TCP,
    # and reads the request path only for an HTTP(S) probe: the path alone is ignored, so the
    # protocol is set beside it to probe the server's readiness path, not only its port.
    load_balancer: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "internal": {"service.beta.kubernetes.io/azure-load-balancer-internal": "true"},
        "external": {},
    }
    probe_path_annotation = (
        "service.beta.kubernetes.io/azure-load-balancer-health-probe-request-path"
    )
    probe_protocol_annotation = (
        "service.beta.kubernetes.io/azure-load-balancer-health-probe-protocol"
    )
    account = "azure"
    account_needed = True
    account_example = "add azure: {subscription_id: <GUID>, resource_group: <name>}"
    example_region = "eastus"
    region_pattern = re.compile(r"^[a-z][a-z0-9]+$")
    cluster_names = NameRule(
        re.compile(r"^[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$"),
        63,
        "letters, digits, - and _; starts and ends with a letter or digit",
    )
    pool_names = NameRule(
        re.compile(r"^[a-z][a-z0-9]{0,11}$"),
        12,
        "lowercase letters and digits; starts with a letter",
    )
    shape_kind = "aks_shape"
    shape_word = "Azure VM size"
    images = ("Ubuntu", "AzureLinux")
    disk_types = ("Managed", "Ephemeral")
    system_disk = (128, "Managed")  # aks-cluster: system_pool.disk_size_gb's default
    egress_load_balancer = True  # aks-cluster: outbound_type = "loadBalancer"
    capacity_types = frozenset({"on-demand", "spot", "reservation"})
    capacity_alternative = "use on-demand, spot, or reservation with a capacity reservation group"
    settings = (
        Setting(("network", "subnet_ids")),
        Setting(("network", "public_endpoint")),
        Setting(("node_pools", "*", "capacity", "max_price")),
        Setting(("node_pools", "*", "capacity", "*", "spot", "max_price")),
        Setting(("node_pools", "*", "infiniband")),
    )
    default_device_plugin = "nvidia-device-plugin"
    managed_device_plugin = False
    operator_mig_strategy = None  # AKS partitions MIG pools itself (gpu_instance)
    weight_mounts = frozenset({"copy", "image", "blobfuse"})
    # The managed autoscaler is the upstream one; the cluster's profile sets
    # skip_nodes_with_local_storage = false, the annotation keeps that true of each pod when a
    # profile is changed by hand.
    local_volume_annotation = True
    blob_workload_identity = True

    def managed_query(self, cluster: Cluster) -> MetricsQuery | None:
        """Azure Monitor managed Prometheus (aks-managed-prometheus in the infra stage), queried
        by KEDA's operator as a user-assigned identity through workload identity."""
        return metrics.query(cluster)

    providers: ClassVar[Mapping[str, tuple[str, str]]] = {
        "azurerm": ("hashicorp/azurerm", ">= 4.79, < 5")
    }
    infra_provider = "azurerm"
    infracost_usage_key = "nodes"
    infracost_system = ("azurerm_kubernetes_cluster.this", ("default_node_pool", "nodes"))
    price_notes: ClassVar[Mapping[str, str]] = {
        "spot": "the Azure price snapshot has no spot price for the H100 sizes"
    }
    cluster_resource = "azurerm_kubernetes_cluster"
    pool_resource = "azurerm_kubernetes_cluster_node_pool"

    def zone_ok(self, region: str, zone: str) -> bool:
        return zone in {"1", "2", "3"} and catalog.azure_region_zones(region) is not False

    def zone_hint(self, region: str) -> str:
        if catalog.azure_region_zones(region) is False:
            return f"{region} has no availability zones: remove zones, or pick a region with them"
        return "AKS zones are 1, 2 and 3"

    def check_cluster(
        self, spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        return checks.cluster(cluster, self.device_plugin(spec), base, loc)

    def check_calendar(
        self,
        cluster: Cluster,
        base: KeyPath,
        loc: Locator,
        today: date,
        charts: Mapping[str, ChartPin],
    ) -> Iterator[Diagnostic]:
        minor = self.kubernetes_minor(cluster)
        if minor is None:
            return iter(())  # AKS picks a supported default
        return calendar.check(cluster, minor, charts, base, loc, today)

    def check_pool(
        self,
        spec: Spec,
        cluster: Cluster,
        pool: NodePool,
        gpu: PoolGpu,
        base: KeyPath,
        loc: Locator,
    ) -> Iterator[Diagnostic]:
        if pool.name == infra.SYSTEM_POOL:
            yield loc.error(
                (*base, "name"),
                f'"{infra.SYSTEM_POOL}" is the name of the AKS default (system) node pool',
                "give the GPU pool another name",
            )
        yield from checks.pool(cluster, pool, gpu, self.device_plugin(spec), base, loc)
        yield from fabric.check_pool(pool, gpu, base, loc)
        yield from fabric.check_peermem(pool, gpu, self.device_plugin(spec), base, loc)

    def group_fabric(self, pools: list[NodePool]) -> GroupFabric:
        return fabric.group_pod(pools)

    def group_fabric_note(self, pool: NodePool) -> tuple[str, str] | None:
        return fabric.note(pool)

    def group_topology(self, pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
        return fabric.topology(pools)

    def cloud_pool_labels(self, pool: NodePool, plugin: ResolvedPlugin) -> dict[str, str]:
        return fabric.node_labels(pool, pool.name)

    def rung_labels(self, spec: Spec, ladder_: Ladder, rung: LadderRung) -> dict[str, str]:
        # Each rung is a scale set of its own, so an InfiniBand network of its own.
        labels = super().rung_labels(spec, ladder_, rung)
        labels.update(fabric.node_labels(ladder_.pool, rung.pool.name))
        return dict(sorted(labels.items()))

    fabric_module = "nic-cluster-policy"

    def fabric_policy(self, cluster: Cluster, grace_seconds: int) -> dict[str, object] | None:
        taints = [
            (t.key, t.effect)
            for pool in cluster.node_pools
            if pool.infiniband
            for t in self.node_taints(pool)
        ]
        return fabric.policy_args(cluster, taints, grace_seconds)

    def node_taints(self, pool: NodePool) -> tuple[Taint, ...]:
        # AKS taints the nodes of a Spot pool, and of a ladder's Spot rung, by itself.
        taints = tuple(pool.taints)
        spot = infra.SPOT_TAINT
        if "spot" in capacity_kinds(pool) and not any(
            t.key == spot.key and t.effect == spot.effect for t in taints
        ):
            taints += (spot,)
        return taints

    def mig_strategy(self, plugin: ResolvedPlugin) -> Literal["single"] | None:
        # AKS's own partitioning yields one profile per node; the device plugin hands the
        # instances out as nvidia.com/gpu with the single strategy.
        return "single" if plugin == "nvidia-device-plugin" else None

    def autoscaler_expander(self, env: EnvSpec, cluster: Cluster) -> str:
        """How the cluster autoscaler picks among the GPU pools that fit a pending pod.

        least-waste: the pool that leaves the least CPU and memory idle. A cluster with a
        capacity ladder ranks its pools instead: "priority", with the ConfigMap the platform
        stage writes (:meth:`ladder_platform`). AKS takes one expander, so on such a cluster
        equal priorities are broken at random, not by waste.
        """
        ladders = [self.ladder(cluster, pool) for pool in cluster.node_pools]
        return "priority" if any(lad.is_ladder for lad in ladders) else "least-waste"

    ladder_kinds = ladder.KINDS

    def rung_pool_name(self, pool: str, suffix: str) -> str:
        # AKS pool names hold letters and digits only: the suffix follows the name directly.
        return f"{pool}{suffix}"

    def check_ladder(
        self, spec: Spec, cluster: Cluster, ladder_: Ladder, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        return ladder.check(ladder_, base, loc)

    def ladder_platform(self, spec: Spec, cluster: Cluster) -> LadderPlatform:
        return expander.priorities([self.ladder(cluster, pool) for pool in cluster.node_pools])

    def group_pattern(self, cluster: Cluster, group: str) -> str:
        return ladder.vmss_pattern(infra.SYSTEM_POOL if group == SYSTEM_GROUP else group)

    def infra(self, env: EnvSpec, cluster: Cluster) -> InfraPart:
        return infra.part(self, env, cluster, self.autoscaler_expander(env, cluster))

    def kube_auth(self, cluster: Cluster) -> KubeAuth:
        # kubelogin turns the caller's Azure CLI login into a short-lived Entra token for the
        # API server; no credential is read from the cluster or stored in state.
        return KubeAuth(
            exec_command="kubelogin",
            exec_args=("get-token", "--login", "azurecli", "--server-id", AKS_SERVER_ID),
        )

    def planned_pool(
        self, values: Mapping[str, object], zones: int | None = None
    ) -> PlannedPool | None:
        return infra.read_pool(values)

    def planned_fee_tier(self, values: Mapping[str, object], today: date) -> str | None:
        # The control-plane tier (Free, Standard with the uptime SLA, Premium) sets the fee.
        tier = values.get("sku_tier")
        if isinstance(tier, str) and tier.lower() != "free":
            return tier.lower()
        return None

    def planned_cluster_pools(self, values: Mapping[str, object]) -> tuple[PlannedPool, ...]:
        pool = infra.read_default_pool(values)
        return (pool,) if pool is not None else ()

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
            "the azurerm state backend (terraform init)"
            if "backend" in text.lower() or "storage account" in text.lower()
            else "the azurerm provider"
        )
        return (
            f"{part} found no Azure credentials: run `az login` (and `az account set "
            "--subscription <id>`), or set ARM_CLIENT_ID, ARM_TENANT_ID and ARM_SUBSCRIPTION_ID "
            "for a service principal; in CI, use OpenID Connect (ARM_USE_OIDC=true, e.g. "
            "azure/login) rather than a stored secret. The platform and serving stages also "
            "need kubelogin on PATH"
        )
