"""Model weights: a source gpuplat can read, a mount the workload's clusters have, Azure Blob
locations and their identities, and a load that fits the startup budget."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, ModelWeights, Workload
from gpuplat.spec.model.base import format_duration
from gpuplat.spec.resolve import startup_seconds
from gpuplat.targets import target
from gpuplat.workload.blob import blob_location
from gpuplat.workload.weights import FUSE_OWN_OPTIONS

_SCHEMES = ("gs://", "s3://", "az://", "hf://", "https://", "file://")


def check(
    workload: Workload, clusters: dict[str, Cluster], base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The source's scheme, where each mount works, and that the weights load in time."""
    model = workload.model
    path = (*base, "model")
    if not model.source.startswith(_SCHEMES):
        yield loc.error(
            (*path, "source"),
            f'model source "{model.source}" has no supported scheme',
            f"use one of: {', '.join(_SCHEMES)}",
        )
    if model.mount == "gcsfuse":
        if not model.source.startswith("gs://"):
            yield loc.error(
                (*path, "mount"),
                "gcsfuse mounts a gs:// bucket",
                "use mount: copy for other sources",
            )
        non_gke = [
            n
            for n in workload.clusters
            if n in clusters and "gcsfuse" not in target(clusters[n].cloud).weight_mounts
        ]
        if non_gke:
            yield loc.error(
                (*path, "mount"),
                f"gcsfuse is the GKE Cloud Storage FUSE driver; {', '.join(non_gke)} is not GKE",
                "use mount: copy to run on every cloud",
            )
    yield from _fuse_settings(model, path, loc)
    yield from _blob(workload, clusters, path, loc)
    if model.mount == "image" and not model.source.startswith("file://"):
        yield loc.error(
            (*path, "mount"),
            "mount: image means the weights are in the image",
            "set source to file:///path/in/image, or use mount: copy",
        )
    needed = startup_seconds(workload)
    if needed > workload.load_time_budget:
        load = model.size_gb * 1000.0 / model.load_bandwidth_mbps
        yield loc.error(
            (*base, "load_time_budget"),
            f"startup needs about {format_duration(needed)}, more than load_time_budget {format_duration(workload.load_time_budget)}",
            "raise load_time_budget, or load faster (load_bandwidth_mbps, a smaller image)",
            details=(
                f"image pull {format_duration(workload.image_pull_time)} + {model.size_gb:g} GB at {model.load_bandwidth_mbps:g} MB/s ({format_duration(round(load))})",
            ),
        )


def _blob(
    workload: Workload, clusters: dict[str, Cluster], path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Azure Blob weights: a well-formed location, mounted only where the Blob CSI driver is."""
    model = workload.model
    blob = blob_location(model.source)
    if model.source.startswith("az://") and (blob is None or not blob.container):
        yield loc.error(
            (*path, "source"),
            f'"{model.source}" does not name a storage account and a container',
            "write az://<storage account>/<container>/<folder>",
        )
        return
    if model.storage_resource_group is not None and blob is None:
        yield loc.error(
            (*path, "storage_resource_group"),
            "storage_resource_group is for weights on Azure Blob",
            "remove it, or use an az:// source",
            at_key=True,
        )
    if model.mount == "blobfuse":
        if blob is None:
            yield loc.error(
                (*path, "mount"),
                "blobfuse mounts an Azure Blob container",
                "use an az:// source, or mount: copy for other sources",
            )
        others = [
            n
            for n in workload.clusters
            if n in clusters and "blobfuse" not in target(clusters[n].cloud).weight_mounts
        ]
        if others:
            yield loc.error(
                (*path, "mount"),
                f"blobfuse is the AKS Blob CSI driver; {', '.join(others)} is not AKS",
                "use mount: copy to run on every cloud",
            )
    if blob is not None:
        anonymous = [
            n
            for n in workload.clusters
            if n in clusters and not target(clusters[n].cloud).blob_workload_identity
        ]
        if anonymous:
            yield loc.warning(
                (*path, "source"),
                f"weights on Azure Blob are read as the workload's own identity on AKS only; on "
                f"{', '.join(anonymous)} the copy works only if the container allows "
                "anonymous reads",
                "keep a copy of the weights in that cloud's storage, or on Hugging Face (hf://)",
            )


def _fuse_settings(model: ModelWeights, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """The Cloud Storage FUSE cache and mount options: only with gcsfuse, and no option that
    gpuplat derives from the spec (the mount takes one comma-separated list)."""
    gcsfuse = model.mount == "gcsfuse"
    if model.fuse_cache != "disk" and not gcsfuse:
        yield loc.error(
            (*path, "fuse_cache"),
            f"fuse_cache is the Cloud Storage FUSE file cache; mount is {model.mount}",
            "remove it, or use mount: gcsfuse",
        )
    if model.fuse_prefetch and not gcsfuse:
        yield loc.error(
            (*path, "fuse_prefetch"),
            f"fuse_prefetch fills the Cloud Storage FUSE file cache; mount is {model.mount}",
            "remove it, or use mount: gcsfuse",
        )
    for i, option in enumerate(model.fuse_mount_options):
        where = (*path, "fuse_mount_options", i)
        name = option.split("=", 1)[0]
        key = name.rsplit(":", 1)[0] if "=" not in option and ":" in name else name
        if not gcsfuse:
            yield loc.error(
                where,
                f"fuse_mount_options are Cloud Storage FUSE's; mount is {model.mount}",
                "remove them, or use mount: gcsfuse",
            )
            return
        if not option or "," in option or option != option.strip():
            yield loc.error(
                where,
                f'mount option "{option}" is not one option',
                "write one option per item, without commas or spaces",
            )
        elif key in FUSE_OWN_OPTIONS:
            yield loc.error(
                where,
                f'gpuplat sets "{key}" itself from the spec',
                "remove it: only-dir follows model.source and file-cache:max-size-mb model.size_gb",
            )
