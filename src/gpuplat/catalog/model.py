"""Frozen, typed records of the GPU catalog, validated by pydantic straight from the data files.

Each record names its sources and its ``as_of`` date; ``unverified`` in a data file is either a
flag or the list of the fields that were not confirmed (read into ``unverified`` and
``unverified_fields``). Unknown keys are errors: a typo in a data file never passes silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    field_validator,
    model_validator,
)

Cloud = Literal["gke", "eks", "aks"]
"""Kubernetes flavour a shape or label belongs to (GCE shapes are ``gke``)."""

CpuArch = Literal["x86_64", "arm64"]
"""Host CPU architecture of a machine shape."""

CLOUDS: tuple[Cloud, ...] = ("gke", "eks", "aks")


def _no_bool(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    return value


Text = Annotated[str, Strict(), StringConstraints(min_length=1)]
Int = Annotated[int, Strict()]
Flag = Annotated[bool, Strict()]
Num = Annotated[float, BeforeValidator(_no_bool)]
"""A number: an integer or a decimal in the data file, never true/false."""
AsOf = Annotated[str, Strict(), StringConstraints(pattern=r"^\d{4}-\d{2}(-\d{2})?$")]
"""A date the figure was read or published: YYYY-MM-DD or YYYY-MM."""
Sources = tuple[Text, ...]


class Record(BaseModel):
    """Base of every catalog record: frozen, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)


class Checked(Record):
    """A record whose data file entry may mark itself, or some of its fields, unverified."""

    unverified: Flag = False
    unverified_fields: tuple[Text, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _split_unverified(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("unverified"), list):
            data = {**data, "unverified": True, "unverified_fields": data["unverified"]}
        return data


class Source(Record):
    """One source the catalog's figures come from.

    ``as_of`` is the source's snapshot date where it is known, else the date it was read;
    ``as_of_note`` says which.
    """

    id: Text
    url: Text
    as_of: AsOf
    used_for: Text
    snapshot: Text | None = None
    as_of_note: Text | None = None


class Price(Record):
    """An hourly list price in USD for Linux, in one region, with its source and date."""

    usd_per_hour: Num
    region: Text
    as_of: AsOf
    source: Text
    unverified: Flag = False
    note: Text | None = None


class GpuModel(Checked):
    """A GPU model and its MIG layout.

    ``mig_profiles`` maps a MIG profile name (``1g.10gb``) to the most instances of that
    profile one GPU can hold. It is empty for GPUs without MIG, and for MIG-capable GPUs
    whose layouts the catalog does not restate (see ``note``).
    """

    name: Text
    arch: Text
    memory_gb: Int
    mig_capable: Flag
    source: Sources
    as_of: AsOf
    profiles: dict[Text, Int] = Field(default_factory=dict, alias="mig_profiles")
    memory_type: Text | None = None
    mig_max_instances: Int | None = None
    mig_device_ids: tuple[Text, ...] = ()
    note: Text | None = None

    @property
    def mig_profiles(self) -> Mapping[str, int]:
        return MappingProxyType(self.profiles)


class Accelerator(Checked):
    """A GKE accelerator name (the ``cloud.google.com/gke-accelerator`` label value).

    ``attach`` is ``bundled`` when the GPU comes with the machine type (G2, A2, A3, ...) and
    ``attached`` when it is added to an N1 VM; only attached GPUs have ``allowed_counts``.
    """

    name: Text
    gpu_model: Text
    gpu_memory_gb: Int
    attach: Literal["bundled", "attached"]
    machine_series: Text
    max_per_vm: Int | None
    source: Sources
    as_of: AsOf
    allowed_counts: tuple[Int, ...] | None = None
    host_arch: CpuArch = "x86_64"
    vcpus_by_count: dict[Int, Int] = Field(default_factory=dict, alias="max_vcpus_by_count")
    price_on_demand_per_gpu: Price | None = None
    price_spot_per_gpu: Price | None = None
    note: Text | None = None

    @property
    def max_vcpus_by_count(self) -> Mapping[int, int]:
        return MappingProxyType(self.vcpus_by_count)


def _fraction(value: object) -> object:
    return Fraction(value) if isinstance(value, str) else value


class Shape(Checked):
    """A machine shape: GCE machine type, EC2 instance type or Azure VM size.

    ``gpu_count`` counts whole GPUs. Fractional shapes (EC2 g6f/gr6f, Azure NV A10 vGPU
    slices) have ``gpu_count == 0`` and the share of one GPU in ``gpu_fraction``.
    ``gpu_memory_gb`` is per GPU (per slice when fractional), in the GB the GPU is sold by.
    ``memory_gib`` is host memory as the cloud's API or size page gives it. ``efa`` is set
    for EC2 only, ``accelerator`` for GCE shapes with bundled GPUs only. N1 hosts for
    attached GPUs are shapes with ``gpu_model is None``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    cloud: Cloud
    name: Text
    series: Text
    gpu_count: Int
    vcpus: Int
    memory_gib: Num
    arch: CpuArch
    source: Sources
    as_of: AsOf
    gpu_model: Text | None = None
    gpu_fraction: Annotated[Fraction | None, BeforeValidator(_fraction)] = None
    gpu_memory_gb: Num | None = None
    gpu_memory_mib: Int | None = None
    accelerator: Text | None = None
    efa_interfaces: Int | None = None
    infiniband: Flag | None = None
    vgpu: Flag = False
    local_nvme_gb: Int | None = None
    network_mbps: Int | None = None
    temp_disk_gib: Int | None = None
    """Azure: the VM's local temporary disk, where an Ephemeral OS disk can be placed."""
    nvme_disks: Int | None = None
    max_nics: Int | None = None
    on_demand_available: Flag | None = None
    price_on_demand: Price | None = Field(None, alias="on_demand")
    price_spot: Price | None = Field(None, alias="spot")
    notes: tuple[Text, ...] = ()

    @property
    def efa(self) -> bool | None:
        """Whether the shape supports EFA (EC2 only; None elsewhere)."""
        return None if self.efa_interfaces is None else self.efa_interfaces > 0

    @property
    def gpus(self) -> Fraction:
        """GPUs per VM as an exact number: ``gpu_count``, or ``gpu_fraction`` when fractional."""
        return self.gpu_fraction if self.gpu_fraction is not None else Fraction(self.gpu_count)


class MigExposure(Record):
    """How one cloud lets a node pool use MIG: the setting and the values it takes."""

    cloud: Cloud
    mechanism: Text
    setting: Text
    value_format: Text
    source: Sources
    as_of: AsOf
    values: tuple[Text, ...] | None = None
    node_label: Text | None = None
    note: Text | None = None


class MigSupport(Checked):
    """Whether GKE's managed MIG (``gpu_partition_size``) supports a GPU model; None = unknown."""

    gpu_model: Text
    supported: Flag | None
    source: Sources
    as_of: AsOf
    note: Text | None = None


class FeatureFloor(Checked):
    """The minimum Kubernetes or GKE version for a feature."""

    name: Text
    applies_to: Text
    version: Text
    description: Text
    source: Sources
    as_of: AsOf
    note: Text | None = None


class FeatureLimit(Checked):
    """A numeric limit of a feature, such as the most clients sharing one GPU."""

    name: Text
    applies_to: Text
    value: Int
    description: Text
    source: Sources
    as_of: AsOf
    note: Text | None = None


class ChartPin(Checked):
    """A Helm chart pin: repository (``https://`` or ``oci://``), chart name and version."""

    name: Text
    repository: Text
    chart: Text
    version: Text
    source: Sources
    as_of: AsOf
    note: Text | None = None
    webhook_ports: tuple[Annotated[int, Strict(), Field(ge=1, le=65535)], ...] = ()
    """Ports on the nodes where the chart's admission webhooks or aggregated APIs listen, which
    the API server must reach (a private GKE control plane reaches only 443 and 10250)."""


class NodeLabel(Checked):
    """A node label that identifies GPU nodes, the clouds it applies to and who sets it."""

    key: Text
    clouds: tuple[Cloud, ...]
    value_format: Text
    applied_by: Text
    source: Sources
    as_of: AsOf
    note: Text | None = None


# --------------------------------------------------------------------------- files


class GpusFile(Record):
    gpu_models: list[GpuModel]


class ShapesFile(Record):
    """A cloud's shape file (``gke.yaml``, ``ec2.yaml``, ``azure.yaml``): its cloud named once."""

    cloud: Cloud
    reference_region: Text
    shapes: list[Shape]

    @model_validator(mode="before")
    @classmethod
    def _cloud_of_each_shape(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("shapes"), list):
            cloud = data.get("cloud")
            shapes = [{"cloud": cloud, **s} if isinstance(s, dict) else s for s in data["shapes"]]
            data = {**data, "shapes": shapes}
        return data


class GkeFile(ShapesFile):
    accelerators: list[Accelerator]


class AzureFile(ShapesFile):
    aks_gpu_driver_values: tuple[Text, ...]
    aks_gpu_driver_source: Sources
    aks_gpu_driver_as_of: AsOf
    regions_source: Sources
    regions_as_of: AsOf
    regions_with_zones: tuple[Text, ...]
    regions_without_zones: tuple[Text, ...]


class MigFile(Record):
    no_mig: tuple[Text, ...]
    no_mig_other: tuple[Text, ...] = ()
    no_mig_basis: Text
    no_mig_source: Sources
    no_mig_as_of: AsOf
    profile_name_format: Text
    exposure: list[MigExposure]
    gke_support: list[MigSupport]

    @field_validator("exposure")
    @classmethod
    def _one_per_cloud(cls, value: list[MigExposure]) -> list[MigExposure]:
        clouds = [e.cloud for e in value]
        twice = sorted({c for c in clouds if clouds.count(c) > 1})
        if twice:
            raise ValueError(f"duplicate exposure for {', '.join(twice)}")
        return value


class FeaturesFile(Record):
    floors: list[FeatureFloor]
    limits: list[FeatureLimit]


class ChartsFile(Record):
    charts: list[ChartPin]


class LabelsFile(Record):
    labels: list[NodeLabel]


class SourcesFile(Record):
    catalog_as_of: AsOf
    sources: list[Source]
