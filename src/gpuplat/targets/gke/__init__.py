"""GKE: Google Kubernetes Engine clusters, GPU node pools on GCE, and GKE's own GPU add-ons."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from typing import TYPE_CHECKING, ClassVar

from gpuplat.catalog import ChartPin, Shape
from gpuplat.render.views import InfraPart
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder, LadderRung, single_capacity
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets.base import (
    KubeAuth,
    LadderPlatform,
    NameRule,
    ResolvedPlugin,
    Setting,
    Target,
)
from gpuplat.targets.fabric import GroupFabric
from gpuplat.targets.gke import (
    calendar,
    checks,
    classsettings,
    fabric,
    fabric_checks,
    infra,
    ladder,
    node,
)
from gpuplat.targets.gke.computeclass import CLASS_LABEL
from gpuplat.targets.node_reserve import EphemeralDisk, Reserve
from gpuplat.targets.planvalues import PlannedPool
from gpuplat.targets.scaling import MetricsQuery

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec
    from gpuplat.spec.resolve import PoolGpu

_RFC1035_40 = re.compile(r"^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$")
NO_DEFAULT_DEVICE_PLUGIN = {"gke-no-default-nvidia-gpu-device-plugin": "true"}
"""GKE's documented label for nodes whose GPUs another device plugin (or DRA driver) hands out."""
DRA_LABELS = {**NO_DEFAULT_DEVICE_PLUGIN, "nvidia.com/gpu.present": "true"}
OPERATOR_SKIPS_DRIVER = {"nvidia.com/gpu.deploy.driver": "false"}
"""The GPU Operator's per-node switch: its driver daemonset skips nodes whose driver GKE installs,
so a cluster may mix GKE-managed pools with pools whose driver the operator builds."""
REGIONAL_ZONES = 3
"""Zones GKE spreads a regional cluster's nodes over when none are given."""
_ADC = (
    "could not find default credentials",
    "Attempted to load application default credentials",
)


GMP_QUERY = "https://monitoring.googleapis.com/v1"
"""Google Managed Prometheus' Prometheus-compatible query API."""


class GKE(Target):
    interruption_notices: ClassVar[Mapping[str, tuple[int, str]]] = {
        "spot": (
            15,
            "GKE gives non-system pods about 15 s on a Spot preemption, best effort (GKE Spot VMs)",
        )
    }
    cloud = "gke"
    title = "GKE"
    # LoadBalancer Service parameters (cloud.google.com/kubernetes-engine/docs/concepts/
    # service-load-balancer-parameters): "Internal" makes an internal passthrough Network Load
    # Balancer (all supported versions); l4-rbs the backend service-based external one, which
    # GKE recommends for every new external LoadBalancer Service.
    load_balancer: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "internal": {"networking.gke.io/load-balancer-type": "Internal"},
        "external": {"cloud.google.com/l4-rbs": "enabled"},
    }
    account = "gcp"
    account_needed = True
    account_example = "add gcp: {project: <project id>}"
    example_region = "us-central1"
    region_pattern = re.compile(r"^[a-z]+-[a-z]+\d+$")
    cluster_names = NameRule(
        _RFC1035_40, 40, "lowercase letters, digits and dashes; starts with a letter"
    )
    pool_names = cluster_names
    shape_kind = "gke_shape"
    shape_word = "GCE machine type"
    accelerator_kind = "gke_accelerator"
    accelerator_word = "GKE accelerator"
    images = ("COS_CONTAINERD", "UBUNTU_CONTAINERD")
    disk_types = (
        "pd-standard",
        "pd-balanced",
        "pd-ssd",
        "pd-extreme",
        "hyperdisk-balanced",
        "hyperdisk-extreme",
        "hyperdisk-throughput",
        "hyperdisk-ml",
    )
    system_disk = (100, "pd-balanced")  # gke-cluster: system_pool.disk_size_gb's default
    infracost_nat = ("google_compute_router_nat.nat[0]", "assigned_vms")

    def boot_disk(self, pool: NodePool) -> tuple[int, str]:
        if pool.disk.type is not None:
            return pool.disk.size_gb, pool.disk.type
        hyper = pool.machine_type.startswith(infra.HYPERDISK_ONLY)
        return pool.disk.size_gb, "hyperdisk-balanced" if hyper else "pd-balanced"

    def local_ssds(self, pool: NodePool) -> tuple[int, int, bool] | None:
        count = pool.disk.local_ssd_count
        if not count:
            return None
        shape = self.shape(pool.machine_type)
        return count, node.LOCAL_SSD_GB, shape is not None and shape.nvme_disks == count

    def nat_gateways(self, cluster: Cluster, protected: bool) -> int:
        return 1 if cluster.network.private_nodes and cluster.network.cloud_nat else 0

    def public_node_addresses(self, cluster: Cluster) -> bool:
        return not cluster.network.private_nodes

    capacity_types = frozenset({"on-demand", "spot", "reservation", "flex-start", "queued"})
    settings = (
        Setting(("regional",)),
        Setting(("kubernetes", "release_channel"), "set kubernetes.version instead"),
        Setting(("network", "subnetwork")),
        Setting(("network", "control_plane_cidr")),
        Setting(("network", "cloud_nat")),
        Setting(("node_pools", "*", "autoscaling", "per_zone")),
        Setting(("node_pools", "*", "autoscaling", "location_policy")),
        Setting(("node_pools", "*", "placement", "policy")),
        Setting(("node_pools", "*", "disk", "local_ssd_count")),
        Setting(("node_pools", "*", "secondary_boot_disks")),
        Setting(
            ("node_pools", "*", "gpudirect"),
            "use efa: true on EKS; AKS InfiniBand is not rendered yet",
        ),
        Setting(("node_pools", "*", "capacity", "reservation_project")),
        Setting(("node_pools", "*", "autoscaling", "when_unavailable")),
        Setting(("node_pools", "*", "compute_class")),
        Setting(("node_pools", "*", "capacity", "*", "priority_score")),
    )
    managed_dcgm = True
    operator_mig_strategy = None
    operator_host_paths = True
    weight_mounts = frozenset({"copy", "image", "gcsfuse"})
    local_ssd_ephemeral = True
    providers: ClassVar[Mapping[str, tuple[str, str]]] = {
        "google": ("hashicorp/google", ">= 6.50, < 8")
    }
    infra_provider = "google"
    kube_providers = ("google",)
    infracost_usage_key = "nodes"
    infracost_per_zone = True
    cluster_resource = "google_container_cluster"
    pool_resource = "google_container_node_pool"

    def zone_ok(self, region: str, zone: str) -> bool:
        return re.fullmatch(re.escape(region) + r"-[a-z]", zone) is not None

    def zone_hint(self, region: str) -> str:
        return f"GKE zones look like {region}-a"

    def default_zone_count(self, cluster: Cluster) -> int:
        return REGIONAL_ZONES if cluster.regional else 1

    def check_cluster(
        self, spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        yield from checks.cluster(cluster, self.default_zone_count(cluster), base, loc)
        yield from checks.workloads(spec, cluster, loc)
        yield from fabric_checks.cluster(cluster, base, loc)

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
            return iter(())  # the channel's default, which GKE supports
        return calendar.check(cluster, minor, charts, base, loc, today)

    def fee_tier(self, cluster: Cluster, today: date) -> str | None:
        return calendar.fee_tier(cluster, self.kubernetes_minor(cluster), today)

    def check_shape(
        self, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic] | None:
        # N1 hosts take attached GPUs: the catalog knows the host, the spec names the GPU.
        if pool.machine_type.startswith("n1-"):
            return checks.n1_shape(pool, base, loc)
        return None

    def check_pool(
        self,
        spec: Spec,
        cluster: Cluster,
        pool: NodePool,
        gpu: PoolGpu,
        base: KeyPath,
        loc: Locator,
    ) -> Iterator[Diagnostic]:
        yield from checks.pool(pool, self.device_plugin(spec), base, loc)
        yield from checks.boot_disk(pool, infra.HYPERDISK_ONLY, base, loc)
        yield from checks.local_ssds(pool, base, loc)
        yield from checks.secondary_boot_disks(pool, base, loc)
        yield from fabric_checks.pool(spec, cluster, pool, base, loc)
        yield from classsettings.not_a_ladder(pool, base, loc)
        if (cap := single_capacity(pool)) is not None:
            yield from checks.named_reservation(cap, (*base, "capacity", "type"), loc)
        auto = pool.autoscaling
        if not auto.per_zone and single_capacity(pool) is not None:
            zones = infra.zone_count(self, cluster, pool)
            path = (*base, "autoscaling", "min_nodes")
            yield from checks.node_counts("pool", auto.min_nodes, auto.max_nodes, zones, path, loc)

    def min_nodes_created(self, cluster: Cluster, pool: NodePool | None) -> int:
        return infra.min_nodes_created(self, cluster, pool)

    def cloud_pool_labels(self, pool: NodePool, plugin: ResolvedPlugin) -> dict[str, str]:
        labels: dict[str, str] = {}
        if plugin == "dra":
            labels.update(DRA_LABELS)
        if plugin in ("gpu-operator", "nvidia-device-plugin"):
            # Otherwise GKE's own device plugin runs beside it and both advertise nvidia.com/gpu.
            labels.update(NO_DEFAULT_DEVICE_PLUGIN)
        if plugin in ("gpu-operator", "dra") and pool.driver.install == "managed":
            labels.update(OPERATOR_SKIPS_DRIVER)
        return labels

    def node_features(self, spec: Spec, cluster: Cluster, pool: NodePool) -> frozenset[str]:
        plugin = self.device_plugin(spec)
        return node.node_features(plugin == "managed", node.gke_dcgm(spec, plugin), pool)

    def infra(self, env: EnvSpec, cluster: Cluster) -> InfraPart:
        return infra.part(self, env, cluster)

    ladder_kinds = ladder.KINDS

    def check_ladder(
        self, spec: Spec, cluster: Cluster, ladder_: Ladder, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        yield from ladder.check(spec, cluster, ladder_, base, loc)
        yield from classsettings.check(cluster, ladder_, self.device_plugin(spec), base, loc)
        for rung in ladder_.rungs:
            cap = rung.pool.capacity
            assert not isinstance(cap, list)  # a rung's node pool has one capacity type
            yield from checks.named_reservation(cap, (*base, *rung.path), loc)

    def rung_labels(self, spec: Spec, ladder_: Ladder, rung: LadderRung) -> dict[str, str]:
        labels = super().rung_labels(spec, ladder_, rung)
        if ladder_.is_ladder:
            labels[CLASS_LABEL] = ladder.class_name(ladder_)
        return dict(sorted(labels.items()))

    def rung_taints(self, ladder_: Ladder) -> tuple[dict[str, str], ...]:
        if not ladder_.is_ladder:
            return ()
        name = ladder.class_name(ladder_)
        return ({"key": CLASS_LABEL, "value": name, "effect": "NoSchedule"},)

    def ladder_platform(self, spec: Spec, cluster: Cluster) -> LadderPlatform:
        classes = ladder.compute_classes(
            spec, cluster, [self.ladder(cluster, pool) for pool in cluster.node_pools]
        )
        return LadderPlatform(manifests=tuple(c.manifest() for c in classes))

    def ladder_selector(self, ladder_: Ladder) -> tuple[dict[str, str], tuple[dict[str, str], ...]]:
        return ladder.selector(ladder_) if ladder_.is_ladder else ({}, ())

    def ladder_placement(self, ladder_: Ladder) -> tuple[str, str] | None:
        # Nodes GKE creates for the class carry its label, never gpuplat's pool label.
        return (CLASS_LABEL, ladder.class_name(ladder_)) if ladder.auto_create(ladder_) else None

    def attached_gpus(self, pool: NodePool) -> tuple[str, int] | None:
        # N1 hosts: the spec names the attached GPU and its count; GCE prices them per GPU.
        if pool.accelerator and pool.gpus_per_node:
            return (pool.accelerator, pool.gpus_per_node)
        return None

    def group_fabric(self, pools: list[NodePool]) -> GroupFabric:
        return fabric.group_pod(pools)

    def group_fabric_note(self, pool: NodePool) -> tuple[str, str] | None:
        return fabric.note(pool)

    def group_topology(self, pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
        return fabric.topology(pools)

    def platform_fabric(self, cluster: Cluster) -> dict[str, object] | None:
        return fabric.platform_input(cluster)

    weights_reader_module = "gke-weights-reader"
    metrics_reader_module = "gke-metrics-reader"

    def metrics_reader(self, cluster: Cluster) -> dict[str, object] | None:
        """KEDA's operator may query Managed Prometheus (roles/monitoring.viewer), nothing more."""
        project = cluster.gcp.project if cluster.gcp is not None else None
        if project is None:
            return None
        return {"project": project, "namespace": "keda", "service_account": "keda-operator"}

    def weights_reader(
        self, cluster: Cluster, source: str, namespace: str, service_account: str
    ) -> dict[str, object] | None:
        # The read grant belongs to the serving root: it has the google provider, and the grant
        # is made before the Deployment whose pods read the weights (depends_on there).
        if cluster.gcp is None or not source.startswith("gs://"):
            return None
        bucket = source.removeprefix("gs://").split("/", 1)[0]
        return {
            "project": cluster.gcp.project,
            "namespace": namespace,
            "service_account": service_account,
            "bucket": bucket,
        }

    def kube_auth(self, cluster: Cluster) -> KubeAuth:
        # The caller's own short-lived token, from the google provider; never stored in state.
        return KubeAuth(token="data.google_client_config.current.access_token")

    def planned_pool(
        self, values: Mapping[str, object], zones: int | None = None
    ) -> PlannedPool | None:
        return infra.read_pool(values, zones)

    def planned_zones(self, values: Mapping[str, object]) -> int | None:
        return infra.planned_zones(values)

    def kubelet_reserve(self, shape: Shape) -> Reserve | None:
        return node.kubelet_reserve(shape)

    def ephemeral_disk(self, pool: NodePool) -> EphemeralDisk | None:
        return node.ephemeral_disk(pool)

    def disk_write_mibps(self, pool: NodePool) -> float | None:
        return node.disk_write_mibps(pool, infra.disk_type(pool))

    default_prometheus = "managed"

    def managed_query(self, cluster: Cluster) -> MetricsQuery | None:
        """Google Cloud Managed Service for Prometheus: its query API for the cluster's project,
        read by KEDA's operator through Workload Identity (provider gcp); a PodMonitoring
        selects the pods (managed collection is on in new clusters)."""
        project = cluster.gcp.project if cluster.gcp is not None else None
        if project is None:
            return None
        address = f"{GMP_QUERY}/projects/{project}/location/global/prometheus"
        return MetricsQuery(address, "gcp", "gmp")

    def credentials_hint(self, text: str) -> str | None:
        if not any(marker in text for marker in _ADC):
            return None
        part = (
            "the GCS state backend (terraform init)"
            if "storage.NewClient" in text
            else "the google provider"
        )
        return (
            f"{part} found no Google credentials: run `gcloud auth application-default "
            "login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file (or "
            "GOOGLE_OAUTH_ACCESS_TOKEN to a short-lived token); in CI, use workload identity "
            "federation (e.g. google-github-actions/auth) rather than a stored key"
        )
