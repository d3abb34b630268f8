"""Lazy loading of the catalog data files and the lookups built on them."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, TypeVar, get_args

from gpuplat.catalog.model import (
    CLOUDS,
    Accelerator,
    ChartPin,
    Cloud,
    CpuArch,
    FeatureFloor,
    FeatureLimit,
    GpuModel,
    MigExposure,
    MigSupport,
    NodeLabel,
    Price,
    Shape,
    Source,
)

GKE_ACCELERATOR_LABEL = "cloud.google.com/gke-accelerator"
"""GKE node label whose value is the accelerator name, e.g. ``nvidia-l4``."""

Kind = Literal[
    "gpu_model",
    "gke_accelerator",
    "gke_shape",
    "eks_shape",
    "aks_shape",
    "chart",
    "feature_floor",
    "feature_limit",
    "source",
]
"""Name spaces that :func:`close_matches` can search."""

_SHAPE_FILES: Mapping[Cloud, str] = {"gke": "gke", "eks": "ec2", "aks": "azure"}
_AS_OF = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")
_AKS_SLICES = re.compile(r"^(\d+)g\.")
_T = TypeVar("_T")


class CatalogDataError(ValueError):
    """A catalog data file is malformed (a packaging or editing error, never user input)."""


class UnknownNameError(KeyError):
    """A name is not in the catalog; ``suggestions`` holds close matches."""

    def __init__(self, kind: str, name: str, suggestions: list[str]) -> None:
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.kind = kind
        self.name = name
        self.suggestions = suggestions

    def __str__(self) -> str:
        return str(self.args[0])


# --------------------------------------------------------------------------- reading


@functools.cache
def _read(stem: str) -> Mapping[str, Any]:
    """Parse one data file; cached, so each file is read at most once per process."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    path = resources.files("gpuplat.catalog").joinpath("data").joinpath(f"{stem}.yaml")
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    if not isinstance(data, dict):
        raise CatalogDataError(f"{stem}.yaml: expected a mapping at the top level")
    return data


class _Fields:
    """Typed, checked access to one mapping of a data file; unknown keys are errors."""

    def __init__(self, raw: object, where: str) -> None:
        if not isinstance(raw, dict):
            raise CatalogDataError(f"{where}: expected a mapping, got {type(raw).__name__}")
        self._raw: dict[str, Any] = raw
        self._where = where
        self._used: set[str] = set()

    def _get(self, key: str, required: bool) -> Any:
        self._used.add(key)
        if key not in self._raw and required:
            raise CatalogDataError(f"{self._where}: missing {key!r}")
        return self._raw.get(key)

    def _fail(self, key: str, want: str) -> CatalogDataError:
        return CatalogDataError(f"{self._where}: {key!r} must be {want}")

    def text(self, key: str) -> str:
        value = self._get(key, required=True)
        if not isinstance(value, str) or not value:
            raise self._fail(key, "a non-empty string")
        return value

    def opt_text(self, key: str) -> str | None:
        return self.text(key) if self._get(key, required=False) is not None else None

    def integer(self, key: str) -> int:
        value = self._get(key, required=True)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, "an integer")
        return value

    def opt_integer(self, key: str) -> int | None:
        return self.integer(key) if self._get(key, required=False) is not None else None

    def number(self, key: str) -> float:
        value = self._get(key, required=True)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._fail(key, "a number")
        return value

    def opt_number(self, key: str) -> float | None:
        return self.number(key) if self._get(key, required=False) is not None else None

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, required=False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self._fail(key, "true or false")
        return value

    def opt_flag(self, key: str) -> bool | None:
        return self.flag(key) if self._get(key, required=False) is not None else None

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key, required=True)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self._fail(key, "a list of strings")
        return tuple(value)

    def opt_texts(self, key: str) -> tuple[str, ...] | None:
        return self.texts(key) if self._get(key, required=False) is not None else None

    def opt_integers(self, key: str) -> tuple[int, ...] | None:
        value = self._get(key, required=False)
        if value is None:
            return None
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            raise self._fail(key, "a list of integers")
        return tuple(value)

    def int_map(self, key: str) -> Mapping[Any, int]:
        value = self._get(key, required=False)
        if value is None:
            return MappingProxyType({})
        if not isinstance(value, dict) or not all(_is_int(v) for v in value.values()):
            raise self._fail(key, "a mapping to integers")
        return MappingProxyType(dict(value))

    def sub(self, key: str) -> _Fields | None:
        value = self._get(key, required=False)
        return None if value is None else _Fields(value, f"{self._where}.{key}")

    def items(self, key: str) -> list[_Fields]:
        value = self._get(key, required=True)
        if not isinstance(value, list):
            raise self._fail(key, "a list")
        return [_Fields(v, f"{self._where}.{key}[{i}]") for i, v in enumerate(value)]

    def choice(self, key: str, allowed: tuple[str, ...], default: str | None = None) -> str:
        value = self._get(key, required=default is None)
        value = default if value is None else value
        if value not in allowed:
            raise self._fail(key, f"one of {', '.join(allowed)}")
        assert isinstance(value, str)
        return value

    def sources(self) -> tuple[str, ...]:
        return self.texts("source")

    def as_of(self, key: str = "as_of") -> str:
        value = self.text(key)
        if not _AS_OF.match(value):
            raise self._fail(key, "a date YYYY-MM-DD or YYYY-MM")
        return value

    def unverified(self) -> tuple[bool, tuple[str, ...]]:
        value = self._get("unverified", required=False)
        if value is None or value is False:
            return False, ()
        if value is True:
            return True, ()
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return True, tuple(value)
        raise self._fail("unverified", "true, false or a list of field names")

    def done(self) -> None:
        extra = sorted(set(self._raw) - self._used)
        if extra:
            raise CatalogDataError(f"{self._where}: unknown keys {', '.join(extra)}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _index(items: Iterable[_T], key: str, where: str) -> Mapping[str, _T]:
    table: dict[str, _T] = {}
    for item in items:
        name = getattr(item, key)
        if name in table:
            raise CatalogDataError(f"{where}: duplicate {key} {name!r}")
        table[name] = item
    return MappingProxyType(table)


def _cloud(value: str) -> Cloud:
    if value not in CLOUDS:
        raise ValueError(f"unknown cloud {value!r}; expected one of {', '.join(CLOUDS)}")
    return value


# --------------------------------------------------------------------------- parsing


def _price(f: _Fields | None) -> Price | None:
    if f is None:
        return None
    price = Price(
        usd_per_hour=f.number("usd_per_hour"),
        region=f.text("region"),
        as_of=f.as_of(),
        source=f.text("source"),
        unverified=f.flag("unverified"),
        note=f.opt_text("note"),
    )
    f.done()
    return price


def _gpu_model(f: _Fields) -> GpuModel:
    unverified, fields = f.unverified()
    model = GpuModel(
        name=f.text("name"),
        arch=f.text("arch"),
        memory_gb=f.integer("memory_gb"),
        memory_type=f.opt_text("memory_type"),
        mig_capable=f.flag("mig_capable"),
        mig_max_instances=f.opt_integer("mig_max_instances"),
        mig_profiles=f.int_map("mig_profiles"),
        mig_device_ids=f.opt_texts("mig_device_ids") or (),
        note=f.opt_text("note"),
        source=f.sources(),
        as_of=f.as_of(),
        unverified=unverified,
        unverified_fields=fields,
    )
    f.done()
    return model


def _accelerator(f: _Fields) -> Accelerator:
    unverified, fields = f.unverified()
    attach = f.choice("attach", ("bundled", "attached"))
    host_arch = f.choice("host_arch", get_args(CpuArch), default="x86_64")
    acc = Accelerator(
        name=f.text("name"),
        gpu_model=f.text("gpu_model"),
        gpu_memory_gb=f.integer("gpu_memory_gb"),
        attach="bundled" if attach == "bundled" else "attached",
        machine_series=f.text("machine_series"),
        max_per_vm=f.opt_integer("max_per_vm"),
        allowed_counts=f.opt_integers("allowed_counts"),
        host_arch="arm64" if host_arch == "arm64" else "x86_64",
        max_vcpus_by_count=f.int_map("max_vcpus_by_count"),
        price_on_demand_per_gpu=_price(f.sub("price_on_demand_per_gpu")),
        price_spot_per_gpu=_price(f.sub("price_spot_per_gpu")),
        note=f.opt_text("note"),
        source=f.sources(),
        as_of=f.as_of(),
        unverified=unverified,
        unverified_fields=fields,
    )
    f.done()
    return acc


def _shape(cloud: Cloud, f: _Fields) -> Shape:
    unverified, fields = f.unverified()
    fraction = f.opt_text("gpu_fraction")
    efa_interfaces = f.opt_integer("efa_interfaces")
    arch = f.choice("arch", get_args(CpuArch))
    shape = Shape(
        cloud=cloud,
        name=f.text("name"),
        series=f.text("series"),
        accelerator=f.opt_text("accelerator"),
        gpu_model=f.opt_text("gpu_model"),
        gpu_count=f.integer("gpu_count"),
        gpu_fraction=Fraction(fraction) if fraction is not None else None,
        gpu_memory_gb=f.opt_number("gpu_memory_gb"),
        gpu_memory_mib=f.opt_integer("gpu_memory_mib"),
        vcpus=f.integer("vcpus"),
        memory_gib=f.number("memory_gib"),
        arch="arm64" if arch == "arm64" else "x86_64",
        efa=efa_interfaces > 0 if efa_interfaces is not None else None,
        efa_interfaces=efa_interfaces,
        infiniband=f.opt_flag("infiniband"),
        vgpu=f.flag("vgpu"),
        local_nvme_gb=f.opt_integer("local_nvme_gb"),
        network_mbps=f.opt_integer("network_mbps"),
        on_demand_available=f.opt_flag("on_demand_available"),
        price_on_demand=_price(f.sub("on_demand")),
        price_spot=_price(f.sub("spot")),
        notes=f.opt_texts("notes") or (),
        source=f.sources(),
        as_of=f.as_of(),
        unverified=unverified,
        unverified_fields=fields,
    )
    f.done()
    return shape


@functools.cache
def _gpus() -> Mapping[str, GpuModel]:
    root = _Fields(_read("gpus"), "gpus.yaml")
    return _index((_gpu_model(f) for f in root.items("gpu_models")), "name", "gpus.yaml")


@functools.cache
def _accelerators() -> Mapping[str, Accelerator]:
    root = _Fields(_read("gke"), "gke.yaml")
    return _index((_accelerator(f) for f in root.items("accelerators")), "name", "gke.yaml")


@functools.cache
def _shapes(cloud: Cloud) -> Mapping[str, Shape]:
    stem = _SHAPE_FILES[cloud]
    data = _read(stem)
    if data.get("cloud") != cloud:
        raise CatalogDataError(f"{stem}.yaml: expected cloud {cloud!r}")
    root = _Fields(data, f"{stem}.yaml")
    return _index((_shape(cloud, f) for f in root.items("shapes")), "name", f"{stem}.yaml")


@functools.cache
def _mig() -> tuple[tuple[str, ...], Mapping[Cloud, MigExposure], Mapping[str, MigSupport]]:
    root = _Fields(_read("mig"), "mig.yaml")
    exposures: list[MigExposure] = []
    for f in root.items("exposure"):
        exposures.append(
            MigExposure(
                cloud=_cloud(f.text("cloud")),
                mechanism=f.text("mechanism"),
                setting=f.text("setting"),
                value_format=f.text("value_format"),
                values=f.opt_texts("values"),
                node_label=f.opt_text("node_label"),
                note=f.opt_text("note"),
                source=f.sources(),
                as_of=f.as_of(),
            )
        )
        f.done()
    support: list[MigSupport] = []
    for f in root.items("gke_support"):
        support.append(
            MigSupport(
                gpu_model=f.text("gpu_model"),
                supported=f.opt_flag("supported"),
                note=f.opt_text("note"),
                source=f.sources(),
                as_of=f.as_of(),
                unverified=f.unverified()[0],
            )
        )
        f.done()
    by_cloud: dict[Cloud, MigExposure] = {}
    for exposure in exposures:
        if exposure.cloud in by_cloud:
            raise CatalogDataError(f"mig.yaml: duplicate exposure for {exposure.cloud}")
        by_cloud[exposure.cloud] = exposure
    support_index = _index(support, "gpu_model", "mig.yaml")
    return root.texts("no_mig"), MappingProxyType(by_cloud), support_index


@functools.cache
def _floors() -> Mapping[str, FeatureFloor]:
    root = _Fields(_read("features"), "features.yaml")
    floors: list[FeatureFloor] = []
    for f in root.items("floors"):
        floors.append(
            FeatureFloor(
                name=f.text("name"),
                applies_to=f.text("applies_to"),
                version=f.text("version"),
                description=f.text("description"),
                note=f.opt_text("note"),
                source=f.sources(),
                as_of=f.as_of(),
                unverified=f.unverified()[0],
            )
        )
        f.done()
    return _index(floors, "name", "features.yaml")


@functools.cache
def _limits() -> Mapping[str, FeatureLimit]:
    root = _Fields(_read("features"), "features.yaml")
    limits: list[FeatureLimit] = []
    for f in root.items("limits"):
        limits.append(
            FeatureLimit(
                name=f.text("name"),
                applies_to=f.text("applies_to"),
                value=f.integer("value"),
                description=f.text("description"),
                note=f.opt_text("note"),
                source=f.sources(),
                as_of=f.as_of(),
                unverified=f.unverified()[0],
            )
        )
        f.done()
    return _index(limits, "name", "features.yaml")


@functools.cache
def _charts() -> Mapping[str, ChartPin]:
    root = _Fields(_read("charts"), "charts.yaml")
    pins: list[ChartPin] = []
    for f in root.items("charts"):
        pins.append(
            ChartPin(
                name=f.text("name"),
                repository=f.text("repository"),
                chart=f.text("chart"),
                version=f.text("version"),
                note=f.opt_text("note"),
                source=f.sources(),
                as_of=f.as_of(),
                unverified=f.unverified()[0],
            )
        )
        f.done()
    return _index(pins, "name", "charts.yaml")


@functools.cache
def _labels() -> tuple[NodeLabel, ...]:
    root = _Fields(_read("labels"), "labels.yaml")
    labels: list[NodeLabel] = []
    for f in root.items("labels"):
        unverified, fields = f.unverified()
        labels.append(
            NodeLabel(
                key=f.text("key"),
                clouds=tuple(_cloud(c) for c in f.texts("clouds")),
                value_format=f.text("value_format"),
                applied_by=f.text("applied_by"),
                note=f.opt_text("note"),
                source=f.sources(),
                as_of=f.as_of(),
                unverified=unverified,
                unverified_fields=fields,
            )
        )
        f.done()
    _index(labels, "key", "labels.yaml")
    return tuple(labels)


@functools.cache
def _sources() -> tuple[str, Mapping[str, Source]]:
    root = _Fields(_read("sources"), "sources.yaml")
    found: list[Source] = []
    for f in root.items("sources"):
        found.append(
            Source(
                id=f.text("id"),
                url=f.text("url"),
                snapshot=f.opt_text("snapshot"),
                as_of=f.as_of(),
                as_of_note=f.opt_text("as_of_note"),
                used_for=f.text("used_for"),
            )
        )
        f.done()
    return root.as_of("catalog_as_of"), _index(found, "id", "sources.yaml")


# --------------------------------------------------------------------------- lookups


def gpu_model(name: str) -> GpuModel | None:
    """Look up a GPU model by its catalog name.

    Args:
        name: Catalog name such as ``L4``, ``A10G``, ``A100-80GB`` or ``H100-80GB``
            (exact, case-sensitive).

    Returns:
        The GPU model, or None when the catalog has no such name.
    """
    return _gpus().get(name)


def gpu_models() -> tuple[GpuModel, ...]:
    """Return every GPU model in catalog order.

    Returns:
        All GPU models.
    """
    return tuple(_gpus().values())


def no_mig_gpus() -> tuple[str, ...]:
    """Return the GPU models the catalog lists explicitly as having no MIG.

    Returns:
        GPU model names, e.g. ``T4``, ``L4``, ``A10G``.
    """
    return _mig()[0]


def mig_profiles(gpu_model_name: str) -> Mapping[str, int]:
    """Return a GPU model's MIG profiles with the most instances of each per GPU.

    Args:
        gpu_model_name: Catalog GPU model name, e.g. ``H100-80GB``.

    Returns:
        Read-only mapping of profile name (``1g.10gb``) to max instances; empty for GPUs
        without MIG.

    Raises:
        UnknownNameError: The GPU model is not in the catalog.
    """
    model = gpu_model(gpu_model_name)
    if model is None:
        hints = close_matches("gpu_model", gpu_model_name)
        raise UnknownNameError("GPU model", gpu_model_name, hints)
    return model.mig_profiles


def mig_exposure(cloud: Cloud) -> MigExposure:
    """Return how a cloud's node pools take a MIG profile.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        The setting, its value format and allowed values where fixed.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return _mig()[1][_cloud(cloud)]


def gke_mig_support(gpu_model_name: str) -> MigSupport | None:
    """Return whether GKE's managed MIG supports a GPU model.

    Args:
        gpu_model_name: Catalog GPU model name.

    Returns:
        The support record (``supported`` is None when unknown), or None when the catalog
        has no record for the model; GPUs without MIG have no record.
    """
    return _mig()[2].get(gpu_model_name)


def aks_gpu_instance(profile: str) -> str | None:
    """Map a MIG profile name to the AKS ``gpu_instance`` value that selects it.

    AKS takes the compute-slice count only (``MIG1g``), so ``1g.10gb`` and ``1g.20gb``
    both map to ``MIG1g``. Media-engine and graphics variants (``+me``, ``+gfx``) have no
    AKS value.

    Args:
        profile: MIG profile name such as ``3g.40gb``.

    Returns:
        The AKS value, or None when the profile has no AKS equivalent.
    """
    match = _AKS_SLICES.match(profile) if "+" not in profile else None
    values = mig_exposure("aks").values or ()
    candidate = f"MIG{match.group(1)}g" if match else None
    return candidate if candidate in values else None


def shape(cloud: Cloud, name: str) -> Shape | None:
    """Look up a machine shape of one cloud.

    Args:
        cloud: ``gke`` (GCE machine types), ``eks`` (EC2 instance types) or ``aks``
            (Azure VM sizes).
        name: Exact shape name, e.g. ``g2-standard-8``, ``g5.12xlarge`` or
            ``Standard_NC24ads_A100_v4``.

    Returns:
        The shape, or None when the catalog has no such name for that cloud.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return _shapes(_cloud(cloud)).get(name)


def shapes(cloud: Cloud) -> tuple[Shape, ...]:
    """Return every shape of one cloud in catalog order.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        All shapes of that cloud.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return tuple(_shapes(_cloud(cloud)).values())


def gke_accelerator(name: str) -> Accelerator | None:
    """Look up a GKE accelerator name.

    Args:
        name: Accelerator name as used in ``guest_accelerator.type`` and the
            ``cloud.google.com/gke-accelerator`` label, e.g. ``nvidia-l4``.

    Returns:
        The accelerator, or None when unknown.
    """
    return _accelerators().get(name)


def gke_accelerators() -> tuple[Accelerator, ...]:
    """Return every GKE accelerator in catalog order.

    Returns:
        All GKE accelerators.
    """
    return tuple(_accelerators().values())


def gpu_model_for_accelerator(cloud: Cloud, accelerator_or_model_name: str) -> GpuModel | None:
    """Resolve the GPU a spec names, the way each cloud names it.

    GKE specs name a GKE accelerator (``nvidia-l4``); EKS and AKS specs name the GPU model
    (``L4``, ``A10G``).

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.
        accelerator_or_model_name: GKE accelerator name or catalog GPU model name.

    Returns:
        The GPU model, or None when the name is unknown for that cloud.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    if _cloud(cloud) == "gke":
        acc = gke_accelerator(accelerator_or_model_name)
        return gpu_model(acc.gpu_model) if acc is not None else None
    return gpu_model(accelerator_or_model_name)


def feature_floor(name: str) -> FeatureFloor:
    """Return the minimum version for a feature.

    Args:
        name: Floor name, e.g. ``k8s_dra_v1``, ``gke_time_sharing``, ``gke_mps``,
            ``gke_flex_start`` or ``gke_queued_provisioning``.

    Returns:
        The floor with its version, source and date.

    Raises:
        UnknownNameError: No floor has that name.
    """
    floor = _floors().get(name)
    if floor is None:
        raise UnknownNameError("feature floor", name, close_matches("feature_floor", name))
    return floor


def feature_floors() -> tuple[FeatureFloor, ...]:
    """Return every feature floor in catalog order.

    Returns:
        All feature floors.
    """
    return tuple(_floors().values())


def feature_limit(name: str) -> FeatureLimit:
    """Return a numeric feature limit.

    Args:
        name: Limit name, e.g. ``gke_gpu_sharing_max_clients``.

    Returns:
        The limit with its value, source and date.

    Raises:
        UnknownNameError: No limit has that name.
    """
    limit = _limits().get(name)
    if limit is None:
        raise UnknownNameError("feature limit", name, close_matches("feature_limit", name))
    return limit


def feature_limits() -> tuple[FeatureLimit, ...]:
    """Return every feature limit in catalog order.

    Returns:
        All feature limits.
    """
    return tuple(_limits().values())


def chart(name: str) -> ChartPin:
    """Return the Helm chart pin for a component.

    Args:
        name: Component name, e.g. ``nvidia-device-plugin``, ``gpu-operator``,
            ``dcgm-exporter``, ``keda``, ``kueue``, ``leaderworkerset`` or
            ``nvidia-dra-driver``.

    Returns:
        The chart pin.

    Raises:
        UnknownNameError: No chart has that name.
    """
    pin = _charts().get(name)
    if pin is None:
        raise UnknownNameError("chart", name, close_matches("chart", name))
    return pin


def charts() -> tuple[ChartPin, ...]:
    """Return every chart pin in catalog order.

    Returns:
        All chart pins.
    """
    return tuple(_charts().values())


def node_labels(cloud: Cloud) -> tuple[NodeLabel, ...]:
    """Return the GPU-related node labels that apply to a cloud.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        The labels, in catalog order.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    wanted = _cloud(cloud)
    return tuple(label for label in _labels() if wanted in label.clouds)


def aks_gpu_driver_values() -> tuple[str, ...]:
    """Return the values the AKS node pool ``gpu_driver`` setting takes.

    Returns:
        The allowed values, e.g. ``Install`` and ``None``.
    """
    return _Fields(_read("azure"), "azure.yaml").texts("aks_gpu_driver_values")


def source(source_id: str) -> Source:
    """Return one source of the catalog's figures.

    Args:
        source_id: Source id as named in an entry's ``source``.

    Returns:
        The source with its URL, snapshot and date.

    Raises:
        UnknownNameError: No source has that id.
    """
    found = _sources()[1].get(source_id)
    if found is None:
        raise UnknownNameError("source", source_id, close_matches("source", source_id))
    return found


def sources() -> tuple[Source, ...]:
    """Return every source in catalog order.

    Returns:
        All sources.
    """
    return tuple(_sources()[1].values())


def catalog_as_of() -> str:
    """Return the date the catalog's facts were last read from their sources.

    Returns:
        An ISO date, e.g. ``2026-11-30``.
    """
    return _sources()[0]


def _names(kind: Kind) -> Iterable[str]:
    if kind == "gpu_model":
        return _gpus().keys()
    if kind == "gke_accelerator":
        return _accelerators().keys()
    if kind in ("gke_shape", "eks_shape", "aks_shape"):
        return _shapes(_cloud(kind.split("_", 1)[0])).keys()
    if kind == "chart":
        return _charts().keys()
    if kind == "feature_floor":
        return _floors().keys()
    if kind == "feature_limit":
        return _limits().keys()
    if kind == "source":
        return _sources()[1].keys()
    raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(get_args(Kind))}")


def close_matches(kind: Kind, name: str) -> list[str]:
    """Suggest catalog names close to an unknown one, for "did you mean" hints.

    Matching ignores case; names that start with ``name`` come first, so ``l4`` suggests
    ``L4`` and ``h100`` suggests ``H100-80GB``.

    Args:
        kind: Which names to search: ``gpu_model``, ``gke_accelerator``, ``gke_shape``,
            ``eks_shape``, ``aks_shape``, ``chart``, ``feature_floor``, ``feature_limit``
            or ``source``.
        name: The name that was not found.

    Returns:
        Up to three catalog names, best first; empty when nothing is close.

    Raises:
        ValueError: ``kind`` is not one of the kinds above.
    """
    by_lower: dict[str, str] = {}
    for candidate in _names(kind):
        by_lower.setdefault(candidate.lower(), candidate)
    wanted = name.lower()
    prefixed = sorted((c for c in by_lower if wanted and c.startswith(wanted)), key=len)
    close = difflib.get_close_matches(wanted, list(by_lower), n=3, cutoff=0.6)
    return list(dict.fromkeys(by_lower[c] for c in [*prefixed, *close]))[:3]
