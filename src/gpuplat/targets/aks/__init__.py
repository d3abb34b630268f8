"""AKS: Azure Kubernetes Service. Validated (names, regions, zones, VM sizes, MIG); rendering
comes with its infra modules."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, ClassVar

from gpuplat.errors import GpuplatError
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.targets.base import InfraPart, KubeAuth, NameRule, Target

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

_GUID = re.compile(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


class AKS(Target):
    cloud = "aks"
    title = "AKS"
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
    capacity_types = frozenset({"on-demand", "spot", "reservation"})
    providers: ClassVar[Mapping[str, tuple[str, str]]] = {
        "azurerm": ("hashicorp/azurerm", ">= 4.79, < 5")
    }
    infra_provider = "azurerm"
    cluster_resource = "azurerm_kubernetes_cluster"
    pool_resource = "azurerm_kubernetes_cluster_node_pool"

    def zone_ok(self, region: str, zone: str) -> bool:
        return zone in {"1", "2", "3"}

    def zone_hint(self, region: str) -> str:
        return "AKS zones are 1, 2 and 3"

    def check_cluster(
        self, spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        if cluster.azure is not None and not _GUID.match(cluster.azure.subscription_id):
            yield loc.error((*base, "azure", "subscription_id"), "subscription_id is not a GUID")

    def infra(self, env: EnvSpec, cluster: Cluster) -> InfraPart:
        raise GpuplatError(
            f"gpuplat cannot render AKS clusters yet: {cluster.name}",
            hint="the spec of an AKS cluster is validated (VM sizes, MIG, names), but only GKE "
            "and EKS clusters are rendered; render the others by leaving the AKS cluster out",
        )

    def kube_auth(self, cluster: Cluster) -> KubeAuth:
        # kubelogin turns the caller's Azure login into a short-lived AKS token.
        return KubeAuth(
            exec_command="kubelogin",
            exec_args=(
                "get-token",
                "--login",
                "azurecli",
                "--server-id",
                "6dae42f8-4368-4678-94ff-3960e28e3630",
            ),
        )
