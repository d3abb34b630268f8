"""Lookups of feature floors and limits, chart pins, node labels and sources; gathers the API."""

from __future__ import annotations

from gpuplat.catalog.files import (
    CatalogDataError,
    azure_file,
    chart_table,
    floor_table,
    known_cloud,
    label_table,
    limit_table,
    source_table,
)
from gpuplat.catalog.hardware import (
    GKE_ACCELERATOR_LABEL,
    aks_gpu_instance,
    gke_accelerator,
    gke_accelerators,
    gke_mig_support,
    gpu_model,
    gpu_model_for_accelerator,
    gpu_models,
    mig_exposure,
    mig_profiles,
    no_mig_gpus,
    shape,
    shapes,
)
from gpuplat.catalog.model import ChartPin, Cloud, FeatureFloor, FeatureLimit, NodeLabel, Source
from gpuplat.catalog.names import Kind, UnknownNameError, close_matches

__all__ = [
    "GKE_ACCELERATOR_LABEL",
    "CatalogDataError",
    "Kind",
    "UnknownNameError",
    "aks_gpu_driver_values",
    "aks_gpu_instance",
    "catalog_as_of",
    "chart",
    "charts",
    "close_matches",
    "feature_floor",
    "feature_floors",
    "feature_limit",
    "feature_limits",
    "gke_accelerator",
    "gke_accelerators",
    "gke_mig_support",
    "gpu_model",
    "gpu_model_for_accelerator",
    "gpu_models",
    "mig_exposure",
    "mig_profiles",
    "no_mig_gpus",
    "node_labels",
    "shape",
    "shapes",
    "source",
    "sources",
]


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
    floor = floor_table().get(name)
    if floor is None:
        raise UnknownNameError("feature floor", name, close_matches("feature_floor", name))
    return floor


def feature_floors() -> tuple[FeatureFloor, ...]:
    """Return every feature floor in catalog order.

    Returns:
        All feature floors.
    """
    return tuple(floor_table().values())


def feature_limit(name: str) -> FeatureLimit:
    """Return a numeric feature limit.

    Args:
        name: Limit name, e.g. ``gke_gpu_sharing_max_clients``.

    Returns:
        The limit with its value, source and date.

    Raises:
        UnknownNameError: No limit has that name.
    """
    limit = limit_table().get(name)
    if limit is None:
        raise UnknownNameError("feature limit", name, close_matches("feature_limit", name))
    return limit


def feature_limits() -> tuple[FeatureLimit, ...]:
    """Return every feature limit in catalog order.

    Returns:
        All feature limits.
    """
    return tuple(limit_table().values())


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
    pin = chart_table().get(name)
    if pin is None:
        raise UnknownNameError("chart", name, close_matches("chart", name))
    return pin


def charts() -> tuple[ChartPin, ...]:
    """Return every chart pin in catalog order.

    Returns:
        All chart pins.
    """
    return tuple(chart_table().values())


def node_labels(cloud: Cloud) -> tuple[NodeLabel, ...]:
    """Return the GPU-related node labels that apply to a cloud.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        The labels, in catalog order.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    wanted = known_cloud(cloud)
    return tuple(label for label in label_table() if wanted in label.clouds)


def aks_gpu_driver_values() -> tuple[str, ...]:
    """Return the values the AKS node pool ``gpu_driver`` setting takes.

    Returns:
        The allowed values, e.g. ``Install`` and ``None``.
    """
    return azure_file().aks_gpu_driver_values


def source(source_id: str) -> Source:
    """Return one source of the catalog's figures.

    Args:
        source_id: Source id as named in an entry's ``source``.

    Returns:
        The source with its URL, snapshot and date.

    Raises:
        UnknownNameError: No source has that id.
    """
    found = source_table()[1].get(source_id)
    if found is None:
        raise UnknownNameError("source", source_id, close_matches("source", source_id))
    return found


def sources() -> tuple[Source, ...]:
    """Return every source in catalog order.

    Returns:
        All sources.
    """
    return tuple(source_table()[1].values())


def catalog_as_of() -> str:
    """Return the date the catalog's facts were last read from their sources.

    Returns:
        An ISO date, e.g. ``2026-11-30``.
    """
    return source_table()[0]
