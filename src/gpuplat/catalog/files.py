"""The catalog's data files, each validated once by its pydantic model and indexed by name.

Importing this module reads nothing: each file is parsed and validated on the first lookup that
needs it and cached for the process, and kept validated between processes by
:mod:`gpuplat.catalog.cache`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gpuplat.catalog import cache
from gpuplat.catalog.model import (
    CLOUDS,
    Accelerator,
    AzureFile,
    ChartPin,
    ChartsFile,
    Cloud,
    FeatureFloor,
    FeatureLimit,
    FeaturesFile,
    GkeFile,
    GpuModel,
    GpusFile,
    LabelsFile,
    MigExposure,
    MigFile,
    MigSupport,
    NodeLabel,
    Shape,
    ShapesFile,
    Source,
    SourcesFile,
)

_M = TypeVar("_M", bound=BaseModel)
_DATA = Path(__file__).with_name("data")
_T = TypeVar("_T")
SHAPE_FILES: Mapping[Cloud, tuple[str, type[ShapesFile]]] = {
    "gke": ("gke", GkeFile),
    "eks": ("ec2", ShapesFile),
    "aks": ("azure", AzureFile),
}
"""Which data file holds each cloud's machine shapes, and its model."""


class CatalogDataError(ValueError):
    """A catalog data file is malformed (a packaging or editing error, never user input)."""


def data_file(stem: str) -> bytes:
    """The bytes of one data file (``data/STEM.yaml``)."""
    # Beside this module (gpuplat installs as plain files); importlib.resources would cost
    # more to import than reading every data file this command needs.
    return (_DATA / f"{stem}.yaml").read_bytes()


def _yaml(stem: str, data: bytes) -> Mapping[str, Any]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found = yaml.load(data.decode("utf-8"), Loader=loader)
    if not isinstance(found, dict):
        raise CatalogDataError(f"{stem}.yaml: expected a mapping at the top level")
    return found


def parse(stem: str, model: type[_M]) -> _M:
    """Validate one data file with its model; from the on-disk cache when it holds these bytes.

    Raises:
        CatalogDataError: The file does not match the model (every problem listed).
    """
    data = data_file(stem)
    entry = cache.entry(stem, data, model)
    found = cache.load(entry, model)
    if found is not None:
        return found
    try:
        found = model.model_validate(_yaml(stem, data))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}"
            for e in exc.errors()
        )
        raise CatalogDataError(f"{stem}.yaml: {problems}") from None
    cache.store(entry, found)
    return found


def index(items: Iterable[_T], key: str, where: str) -> Mapping[str, _T]:
    """Items by one of their attributes; a duplicate is a data error.

    Raises:
        CatalogDataError: Two items share the key.
    """
    table: dict[str, _T] = {}
    for item in items:
        name = getattr(item, key)
        if name in table:
            raise CatalogDataError(f"{where}: duplicate {key} {name!r}")
        table[name] = item
    return MappingProxyType(table)


def known_cloud(value: str) -> Cloud:
    """``value`` as a cloud name.

    Raises:
        ValueError: It is not gke, eks or aks.
    """
    for cloud in CLOUDS:
        if value == cloud:
            return cloud
    raise ValueError(f"unknown cloud {value!r}; expected one of {', '.join(CLOUDS)}")


@functools.cache
def gpu_table() -> Mapping[str, GpuModel]:
    return index(parse("gpus", GpusFile).gpu_models, "name", "gpus.yaml")


@functools.cache
def accelerator_table() -> Mapping[str, Accelerator]:
    gke = parse("gke", GkeFile)
    return index(gke.accelerators, "name", "gke.yaml")


@functools.cache
def shape_file(cloud: Cloud) -> ShapesFile:
    stem, model = SHAPE_FILES[cloud]
    found = parse(stem, model)
    if found.cloud != cloud:
        raise CatalogDataError(f"{stem}.yaml: expected cloud {cloud!r}")
    return found


@functools.cache
def shape_table(cloud: Cloud) -> Mapping[str, Shape]:
    return index(shape_file(cloud).shapes, "name", f"{SHAPE_FILES[cloud][0]}.yaml")


def azure_file() -> AzureFile:
    found = shape_file("aks")
    assert isinstance(found, AzureFile)
    return found


@functools.cache
def mig_tables() -> tuple[tuple[str, ...], Mapping[Cloud, MigExposure], Mapping[str, MigSupport]]:
    mig = parse("mig", MigFile)
    exposures: Mapping[Cloud, MigExposure] = MappingProxyType({e.cloud: e for e in mig.exposure})
    return mig.no_mig, exposures, index(mig.gke_support, "gpu_model", "mig.yaml")


@functools.cache
def floor_table() -> Mapping[str, FeatureFloor]:
    return index(parse("features", FeaturesFile).floors, "name", "features.yaml")


@functools.cache
def limit_table() -> Mapping[str, FeatureLimit]:
    return index(parse("features", FeaturesFile).limits, "name", "features.yaml")


@functools.cache
def chart_table() -> Mapping[str, ChartPin]:
    return index(parse("charts", ChartsFile).charts, "name", "charts.yaml")


@functools.cache
def label_table() -> tuple[NodeLabel, ...]:
    labels = tuple(parse("labels", LabelsFile).labels)
    index(labels, "key", "labels.yaml")
    return labels


@functools.cache
def source_table() -> tuple[str, Mapping[str, Source]]:
    found = parse("sources", SourcesFile)
    return found.catalog_as_of, index(found.sources, "id", "sources.yaml")
