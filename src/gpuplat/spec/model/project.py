"""The whole spec: project, clusters, add-ons, workloads and environments."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.backend import Backend
from gpuplat.spec.model.base import SpecModel
from gpuplat.spec.model.cluster import Cluster
from gpuplat.spec.model.workload import Workload

DevicePlugin = Literal["auto", "managed", "nvidia-device-plugin", "gpu-operator", "dra"]


class Metrics(SpecModel):
    """GPU metrics."""

    dcgm_exporter: bool = Field(
        True, description="Run NVIDIA DCGM exporter for GPU utilisation, memory and errors."
    )
    prometheus: Literal["auto", "managed", "in-cluster"] = Field(
        "auto",
        description="Where the model servers' metrics are collected and KEDA queries them for "
        "autoscaling.metric. managed: the cloud's managed Prometheus (GKE: Managed Service for "
        "Prometheus; EKS: Amazon Managed Service for Prometheus with a managed collector; AKS: "
        "Azure Monitor managed Prometheus), queried by KEDA's operator with a read-only cloud "
        "identity. in-cluster: kube-prometheus-stack installed by the platform stage, scraping "
        "only the model servers. auto: managed on GKE, in-cluster on EKS and AKS (README: "
        "Autoscaling, for why). A "
        "workload's autoscaling.prometheus_address overrides both.",
    )


class GangScheduling(SpecModel):
    """All-or-nothing scheduling for work that needs several pods or hosts at once."""

    kueue: bool = Field(False, description="Install Kueue (quota and gang admission).")
    leader_worker_set: bool = Field(
        False, description="Install LeaderWorkerSet (multi-host model servers)."
    )


class Addons(SpecModel):
    """What runs on every cluster to get pods onto GPUs and observe them."""

    device_plugin: DevicePlugin = Field(
        "auto",
        description="How pods get GPUs. auto: the cloud's managed device plugin on GKE, the "
        "NVIDIA device plugin on EKS and AKS (AKS installs the driver only). managed, nvidia-device-plugin, gpu-operator "
        "(NVIDIA GPU Operator), or dra (Dynamic Resource Allocation with the NVIDIA DRA "
        "driver; Kubernetes >= 1.34).",
    )
    metrics: Metrics = Field(default_factory=Metrics)
    gang_scheduling: GangScheduling = Field(default_factory=GangScheduling)


class Budget(SpecModel):
    """What an environment may spend; `validate` warns when its ceiling costs more."""

    gpu_monthly_usd: float = Field(
        gt=0,
        description="USD per month the GPU pools may cost at their ceiling (every pool at "
        "max_nodes, list prices, 730 h). Over it, validate warns (an error with --strict).",
    )


class Environment(SpecModel):
    """A deployment environment (dev, staging, prod) of the same spec."""

    name: str = Field(description="Environment name: lowercase letters, digits, dashes.")
    overlay: str | None = Field(
        None,
        description="Overlay file, relative to the project folder. Default: envs/<name>.yaml "
        "(optional: an environment without one uses the base spec).",
    )
    backend: Backend = Field(default_factory=Backend)
    protected: bool | None = Field(
        None,
        description="Prod-like: deletion protection on, apply needs confirmation. Default: "
        "true when the name starts with prod.",
    )
    budget: Budget | None = Field(
        None, description="Monthly GPU budget, checked against the ceiling by validate."
    )

    def is_protected(self) -> bool:
        """Prod-like: ``protected`` when given, else a name starting with prod."""
        return self.protected if self.protected is not None else self.name.startswith("prod")


class Spec(SpecModel):
    """A GPU platform: the top level of gpuplat.yaml."""

    version: Literal[1] = Field(1, description="Spec format version.")
    project: str = Field(
        description="Short name for this platform; prefixes state paths and resource labels."
    )
    clusters: list[Cluster] = Field(min_length=1, description="Kubernetes clusters.")
    addons: Addons = Field(default_factory=Addons)
    workloads: list[Workload] = Field(default_factory=list, description="Model servers.")
    environments: list[Environment] = Field(
        min_length=1, description="Environments; each overlays envs/<name>.yaml on this file."
    )


__all__ = [
    "Addons",
    "Backend",
    "Budget",
    "DevicePlugin",
    "Environment",
    "GangScheduling",
    "Metrics",
    "Spec",
]
