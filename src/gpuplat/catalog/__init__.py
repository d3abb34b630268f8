"""GPU catalog: GPU models, machine shapes, MIG layouts, feature floors and chart pins.

The facts live in YAML files under ``gpuplat/catalog/data`` and are restated from public
sources; every entry names its source ids (see :func:`sources`) and an ``as_of`` date, and
carries ``unverified`` where a figure was not confirmed. Importing this package reads no
data: each file is parsed on the first lookup that needs it and cached for the process.

What runs on every GPU node (the clouds' DaemonSets and gpuplat's add-ons, each with its
requests and the features that make it run) and the margin left unclaimed there come from
``daemonsets.yaml``.

Prices beyond a shape's own (cluster fees, how each capacity type is billed, system-pool
shapes) come from ``pricing.yaml``; an unknown figure is None with the reason beside it.

The support calendar (``calendar.yaml``: when each cloud creates and supports a Kubernetes
minor) and what each chart version supports (``chart_support.yaml``) take the day as an
argument; the catalog never reads the clock.

Lookups that may legitimately miss (``gpu_model``, ``shape``, ``gke_accelerator``) return
None; use :func:`close_matches` for "did you mean" hints. Lookups of names the code itself
chooses (``chart``, ``feature_floor``, ``feature_limit``, ``source``) raise
:class:`UnknownNameError`.
"""

from gpuplat.catalog.billing import DiskPrice, NetworkPrice, disk_price, network_price
from gpuplat.catalog.calendar import (
    CloudCalendar,
    Phase,
    Support,
    SupportWindow,
    calendar_as_of,
    cloud_calendar,
    minor_key,
    support,
    support_window,
)
from gpuplat.catalog.chartlines import (
    ChartRelease,
    ChartSupport,
    chart_support,
    chart_supports,
)
from gpuplat.catalog.daemonsets import (
    ContainerRequests,
    Feature,
    NodeDaemonSet,
    NodeMargin,
    node_daemonsets,
    node_margin,
)
from gpuplat.catalog.loader import (
    GKE_ACCELERATOR_LABEL,
    CatalogDataError,
    Kind,
    UnknownNameError,
    aks_gpu_driver_values,
    aks_gpu_instance,
    aks_mig_profiles,
    azure_region_zones,
    catalog_as_of,
    chart,
    charts,
    close_matches,
    feature_floor,
    feature_floors,
    feature_limit,
    feature_limits,
    gke_accelerator,
    gke_accelerators,
    gke_mig_support,
    gpu_model,
    gpu_model_for_accelerator,
    gpu_models,
    mig_exposure,
    mig_profiles,
    no_mig_gpus,
    node_labels,
    shape,
    shapes,
    source,
    sources,
)
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
from gpuplat.catalog.pricing import (
    CapacityBilling,
    ClusterFee,
    SystemShape,
    capacity_billing,
    cluster_fee,
    cluster_fees,
    system_shape,
)

__all__ = [
    "CLOUDS",
    "GKE_ACCELERATOR_LABEL",
    "Accelerator",
    "CapacityBilling",
    "CatalogDataError",
    "ChartPin",
    "ChartRelease",
    "ChartSupport",
    "Cloud",
    "CloudCalendar",
    "ClusterFee",
    "ContainerRequests",
    "CpuArch",
    "DiskPrice",
    "Feature",
    "FeatureFloor",
    "FeatureLimit",
    "GpuModel",
    "Kind",
    "MigExposure",
    "MigSupport",
    "NetworkPrice",
    "NodeDaemonSet",
    "NodeLabel",
    "NodeMargin",
    "Phase",
    "Price",
    "Shape",
    "Source",
    "Support",
    "SupportWindow",
    "SystemShape",
    "UnknownNameError",
    "aks_gpu_driver_values",
    "aks_gpu_instance",
    "aks_mig_profiles",
    "azure_region_zones",
    "calendar_as_of",
    "capacity_billing",
    "catalog_as_of",
    "chart",
    "chart_support",
    "chart_supports",
    "charts",
    "close_matches",
    "cloud_calendar",
    "cluster_fee",
    "cluster_fees",
    "disk_price",
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
    "minor_key",
    "network_price",
    "no_mig_gpus",
    "node_daemonsets",
    "node_labels",
    "node_margin",
    "shape",
    "shapes",
    "source",
    "sources",
    "support",
    "support_window",
    "system_shape",
]
