"""Typed, cached tables built from each catalog data file on first use."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import get_args

from gpuplat.catalog.fields import CatalogDataError, _cloud, _Fields, _index, _read
from gpuplat.catalog.model import (
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

_SHAPE_FILES: Mapping[Cloud, str] = {"gke": "gke", "eks": "ec2", "aks": "azure"}


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
                webhook_ports=f.opt_integers("webhook_ports") or (),
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
