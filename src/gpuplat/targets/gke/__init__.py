"""GKE: Google Kubernetes Engine clusters, GPU node pools on GCE, and GKE's own GPU add-ons."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, ClassVar

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets.base import (
    InfraPart,
    KubeAuth,
    NameRule,
    ResolvedPlugin,
    Setting,
    Target,
)
from gpuplat.targets.gke import checks, infra

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec
    from gpuplat.spec.resolve import PoolGpu

_RFC1035_40 = re.compile(r"^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$")
NO_DEFAULT_DEVICE_PLUGIN = {"gke-no-default-nvidia-gpu-device-plugin": "true"}
"""GKE's documented label for nodes whose GPUs another device plugin (or DRA driver) hands out."""
DRA_LABELS = {**NO_DEFAULT_DEVICE_PLUGIN, "nvidia.com/gpu.present": "true"}
REGIONAL_ZONES = 3
"""Zones GKE spreads a regional cluster's nodes over when none are given."""
_ADC = (
    "could not find default credentials",
    "Attempted to load application default credentials",
)


class GKE(Target):
    cloud = "gke"
    title = "GKE"
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
    capacity_types = frozenset({"on-demand", "spot", "reservation", "flex-start", "queued"})
    settings = (
        Setting(("regional",)),
        Setting(("kubernetes", "release_channel"), "set kubernetes.version instead"),
        Setting(("network", "subnetwork")),
        Setting(("network", "control_plane_cidr")),
        Setting(("node_pools", "*", "autoscaling", "per_zone")),
        Setting(("node_pools", "*", "autoscaling", "location_policy")),
        Setting(("node_pools", "*", "placement", "policy")),
        Setting(("node_pools", "*", "capacity", "reservation_project")),
    )
    managed_dcgm = True
    operator_mig_strategy = None
    operator_host_paths = True
    weight_mounts = frozenset({"copy", "image", "gcsfuse"})
    providers: ClassVar[Mapping[str, tuple[str, str]]] = {
        "google": ("hashicorp/google", ">= 6.50, < 8")
    }
    infra_provider = "google"
    kube_providers = ("google",)
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
        return checks.cluster(cluster, base, loc)

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
        return checks.pool(pool, self.device_plugin(spec), base, loc)

    def cloud_pool_labels(self, pool: NodePool, plugin: ResolvedPlugin) -> dict[str, str]:
        if plugin == "dra":
            return dict(DRA_LABELS)
        if plugin == "gpu-operator":
            return dict(NO_DEFAULT_DEVICE_PLUGIN)
        return {}

    def infra(self, env: EnvSpec, cluster: Cluster) -> InfraPart:
        return infra.part(self, env, cluster)

    def kube_auth(self, cluster: Cluster) -> KubeAuth:
        # The caller's own short-lived token, from the google provider; never stored in state.
        return KubeAuth(token="data.google_client_config.current.access_token")

    def pool_gpus(self, values: Mapping[str, object]) -> tuple[int, int] | None:
        return infra.pool_gpus(values)

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
