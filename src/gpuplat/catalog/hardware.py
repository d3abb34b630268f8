"""Lookups of GPU models, MIG layouts, machine shapes and GKE accelerators."""

from __future__ import annotations

import re
from collections.abc import Mapping

from gpuplat.catalog.files import accelerator_table, gpu_table, known_cloud, mig_tables, shape_table
from gpuplat.catalog.model import Accelerator, Cloud, GpuModel, MigExposure, MigSupport, Shape
from gpuplat.catalog.names import UnknownNameError, close_matches

GKE_ACCELERATOR_LABEL = "cloud.google.com/gke-accelerator"
"""GKE node label whose value is the accelerator name, e.g. ``nvidia-l4``."""

_AKS_SLICES = re.compile(r"^(\d+)g\.")


# --------------------------------------------------------------------------- lookups


def gpu_model(name: str) -> GpuModel | None:
    """Look up a GPU model by its catalog name.

    Args:
        name: Catalog name such as ``L4``, ``A10G``, ``A100-80GB`` or ``H100-80GB``
            (exact, case-sensitive).

    Returns:
        The GPU model, or None when the catalog has no such name.
    """
    return gpu_table().get(name)


def gpu_models() -> tuple[GpuModel, ...]:
    """Return every GPU model in catalog order.

    Returns:
        All GPU models.
    """
    return tuple(gpu_table().values())


def no_mig_gpus() -> tuple[str, ...]:
    """Return the GPU models the catalog lists explicitly as having no MIG.

    Returns:
        GPU model names, e.g. ``T4``, ``L4``, ``A10G``.
    """
    return mig_tables()[0]


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
    return mig_tables()[1][known_cloud(cloud)]


def gke_mig_support(gpu_model_name: str) -> MigSupport | None:
    """Return whether GKE's managed MIG supports a GPU model.

    Args:
        gpu_model_name: Catalog GPU model name.

    Returns:
        The support record (``supported`` is None when unknown), or None when the catalog
        has no record for the model; GPUs without MIG have no record.
    """
    return mig_tables()[2].get(gpu_model_name)


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
    return shape_table(known_cloud(cloud)).get(name)


def shapes(cloud: Cloud) -> tuple[Shape, ...]:
    """Return every shape of one cloud in catalog order.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        All shapes of that cloud.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return tuple(shape_table(known_cloud(cloud)).values())


def gke_accelerator(name: str) -> Accelerator | None:
    """Look up a GKE accelerator name.

    Args:
        name: Accelerator name as used in ``guest_accelerator.type`` and the
            ``cloud.google.com/gke-accelerator`` label, e.g. ``nvidia-l4``.

    Returns:
        The accelerator, or None when unknown.
    """
    return accelerator_table().get(name)


def gke_accelerators() -> tuple[Accelerator, ...]:
    """Return every GKE accelerator in catalog order.

    Returns:
        All GKE accelerators.
    """
    return tuple(accelerator_table().values())


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
    if known_cloud(cloud) == "gke":
        acc = gke_accelerator(accelerator_or_model_name)
        return gpu_model(acc.gpu_model) if acc is not None else None
    return gpu_model(accelerator_or_model_name)
