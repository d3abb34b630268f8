"""Frozen, typed records of the GPU catalog: GPU models, machine shapes, prices and pins."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

Cloud = Literal["gke", "eks", "aks"]
"""Kubernetes flavour a shape or label belongs to (GCE shapes are ``gke``)."""

CpuArch = Literal["x86_64", "arm64"]
"""Host CPU architecture of a machine shape."""

CLOUDS: tuple[Cloud, ...] = ("gke", "eks", "aks")


@dataclass(frozen=True, slots=True)
class Source:
    """One source the catalog's figures come from.

    ``as_of`` is the source's snapshot date where it is known, else the date it was read;
    ``as_of_note`` says which.
    """

    id: str
    url: str
    as_of: str
    used_for: str
    snapshot: str | None = None
    as_of_note: str | None = None


@dataclass(frozen=True, slots=True)
class Price:
    """An hourly list price in USD for Linux, in one region, with its source and date."""

    usd_per_hour: float
    region: str
    as_of: str
    source: str
    unverified: bool = False
    note: str | None = None


@dataclass(frozen=True, slots=True)
class GpuModel:
    """A GPU model and its MIG layout.

    ``mig_profiles`` maps a MIG profile name (``1g.10gb``) to the most instances of that
    profile one GPU can hold. It is empty for GPUs without MIG, and for MIG-capable GPUs
    whose layouts the catalog does not restate (see ``note``).
    """

    name: str
    arch: str
    memory_gb: int
    mig_capable: bool
    mig_profiles: Mapping[str, int] = field(hash=False)
    source: tuple[str, ...]
    as_of: str
    memory_type: str | None = None
    mig_max_instances: int | None = None
    mig_device_ids: tuple[str, ...] = ()
    note: str | None = None
    unverified: bool = False
    unverified_fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Accelerator:
    """A GKE accelerator name (the ``cloud.google.com/gke-accelerator`` label value).

    ``attach`` is ``bundled`` when the GPU comes with the machine type (G2, A2, A3, ...) and
    ``attached`` when it is added to an N1 VM; only attached GPUs have ``allowed_counts``.
    """

    name: str
    gpu_model: str
    gpu_memory_gb: int
    attach: Literal["bundled", "attached"]
    machine_series: str
    max_per_vm: int | None
    allowed_counts: tuple[int, ...] | None
    source: tuple[str, ...]
    as_of: str
    host_arch: CpuArch = "x86_64"
    max_vcpus_by_count: Mapping[int, int] = field(default_factory=dict, hash=False)
    price_on_demand_per_gpu: Price | None = None
    price_spot_per_gpu: Price | None = None
    note: str | None = None
    unverified: bool = False
    unverified_fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Shape:
    """A machine shape: GCE machine type, EC2 instance type or Azure VM size.

    ``gpu_count`` counts whole GPUs. Fractional shapes (EC2 g6f/gr6f, Azure NV A10 vGPU
    slices) have ``gpu_count == 0`` and the share of one GPU in ``gpu_fraction``.
    ``gpu_memory_gb`` is per GPU (per slice when fractional), in the GB the GPU is sold by.
    ``memory_gib`` is host memory as the cloud's API or size page gives it. ``efa`` is set
    for EC2 only, ``accelerator`` for GCE shapes with bundled GPUs only. N1 hosts for
    attached GPUs are shapes with ``gpu_model is None``.
    """

    cloud: Cloud
    name: str
    series: str
    gpu_model: str | None
    gpu_count: int
    vcpus: int
    memory_gib: float
    arch: CpuArch
    source: tuple[str, ...]
    as_of: str
    gpu_fraction: Fraction | None = None
    gpu_memory_gb: float | None = None
    gpu_memory_mib: int | None = None
    accelerator: str | None = None
    efa: bool | None = None
    efa_interfaces: int | None = None
    infiniband: bool | None = None
    vgpu: bool = False
    local_nvme_gb: int | None = None
    network_mbps: int | None = None
    on_demand_available: bool | None = None
    price_on_demand: Price | None = None
    price_spot: Price | None = None
    notes: tuple[str, ...] = ()
    unverified: bool = False
    unverified_fields: tuple[str, ...] = ()

    @property
    def gpus(self) -> Fraction:
        """GPUs per VM as an exact number: ``gpu_count``, or ``gpu_fraction`` when fractional."""
        return self.gpu_fraction if self.gpu_fraction is not None else Fraction(self.gpu_count)


@dataclass(frozen=True, slots=True)
class MigExposure:
    """How one cloud lets a node pool use MIG: the setting and the values it takes."""

    cloud: Cloud
    mechanism: str
    setting: str
    value_format: str
    source: tuple[str, ...]
    as_of: str
    values: tuple[str, ...] | None = None
    node_label: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class MigSupport:
    """Whether GKE's managed MIG (``gpu_partition_size``) supports a GPU model; None = unknown."""

    gpu_model: str
    supported: bool | None
    source: tuple[str, ...]
    as_of: str
    note: str | None = None
    unverified: bool = False


@dataclass(frozen=True, slots=True)
class FeatureFloor:
    """The minimum Kubernetes or GKE version for a feature."""

    name: str
    applies_to: str
    version: str
    description: str
    source: tuple[str, ...]
    as_of: str
    note: str | None = None
    unverified: bool = False


@dataclass(frozen=True, slots=True)
class FeatureLimit:
    """A numeric limit of a feature, such as the most clients sharing one GPU."""

    name: str
    applies_to: str
    value: int
    description: str
    source: tuple[str, ...]
    as_of: str
    note: str | None = None
    unverified: bool = False


@dataclass(frozen=True, slots=True)
class ChartPin:
    """A Helm chart pin: repository (``https://`` or ``oci://``), chart name and version."""

    name: str
    repository: str
    chart: str
    version: str
    source: tuple[str, ...]
    as_of: str
    note: str | None = None
    unverified: bool = False
    webhook_ports: tuple[int, ...] = ()
    """Ports on the nodes where the chart's admission webhooks or aggregated APIs listen, which
    the API server must reach (a private GKE control plane reaches only 443 and 10250)."""


@dataclass(frozen=True, slots=True)
class NodeLabel:
    """A node label that identifies GPU nodes, the clouds it applies to and who sets it."""

    key: str
    clouds: tuple[Cloud, ...]
    value_format: str
    applied_by: str
    source: tuple[str, ...]
    as_of: str
    note: str | None = None
    unverified: bool = False
    unverified_fields: tuple[str, ...] = ()
