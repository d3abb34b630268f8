"""How a server's weights get onto its node: copied by an init container, or mounted."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

from gpuplat import targets
from gpuplat.spec.model import Cluster, ModelWeights, Workload
from gpuplat.workload.blob import (
    BLOB_DRIVER,
    WORKLOAD_IDENTITY_LABEL,
    BlobLocation,
    BlobReader,
    blob_location,
    blob_reader,
)
from gpuplat.workload.source import split_source

MOUNT_PATH = "/models"
# Pinned copier images. The GKE FUSE sidecar and GCS/S3 copies are what read the weights,
# so a tag bump here is a reviewed change like any other.
GCLOUD_IMAGE = "gcr.io/google.com/cloudsdktool/google-cloud-cli:530.0.0-slim"
# The AWS CLI, not s5cmd: on EKS the copier's only credentials are EKS Pod Identity's (a token
# file and a credentials URL; IMDS is one hop away from pods), which an SDK must know to read
# (AWS CLI v2 does); s5cmd's pinned Go SDK predates Pod Identity.
AWS_CLI_IMAGE = "amazon/aws-cli:2.27.0"
CURL_IMAGE = "curlimages/curl:8.11.1"
AZCOPY_IMAGE = "mcr.microsoft.com/azure-storage/azcopy:10.24.0"
# The Cloud Storage FUSE prefetch needs a shell, find and cat, nothing else.
PREFETCH_IMAGE = "busybox:1.37.0"
PREFETCH_REQUESTS = {"cpu": "250m", "memory": "64Mi"}
PREFETCH_LIMITS = {"memory": "64Mi"}
"""What the prefetch asks for: reading a file into /dev/null holds no weights in memory (the
page cache and the FUSE sidecar's downloads are not the container's), and an init container's
requests do not add to the server's."""
# Options for mostly sequential multi-GB reads: parallel downloads into a file cache, no
# metadata expiry (weights do not change under a running server), and wide read-ahead. The
# cache's size is bounded per workload (fuse_cache_gib): it lives on the node's boot disk, one
# per replica, and an unbounded one fills the disk until the kubelet evicts pods.
GCSFUSE_OPTIONS = (
    "implicit-dirs",
    "file-cache:enable-parallel-downloads:true",
    "file-cache:parallel-downloads-per-file:16",
    "file-cache:max-parallel-downloads:-1",
    "file-cache:download-chunk-size-mb:10",
    "metadata-cache:ttl-secs:-1",
    "metadata-cache:stat-cache-max-size-mb:-1",
    "metadata-cache:type-cache-max-size-mb:-1",
    "read_ahead_kb=1024",
)

GCSFUSE_DRIVER = "gcsfuse.csi.storage.gke.io"
FUSE_SIDECAR_CPU_MILLIS = 250
FUSE_SIDECAR_MEMORY_MIB = 256
# The Cloud Storage FUSE sidecar GKE injects into the pod: no limits (a cap on its CPU or memory
# stalls the multi-GB reads the server waits on), and GKE's default requests written out, so the
# replica's share of its node can leave room for them.
GCSFUSE_ANNOTATIONS = {
    "gke-gcsfuse/volumes": "true",
    "gke-gcsfuse/cpu-limit": "0",
    "gke-gcsfuse/memory-limit": "0",
    "gke-gcsfuse/cpu-request": f"{FUSE_SIDECAR_CPU_MILLIS}m",
    "gke-gcsfuse/memory-request": f"{FUSE_SIDECAR_MEMORY_MIB}Mi",
}
"""The sidecar's ephemeral storage (its file cache) is requested and limited per workload."""

Mode = Literal["copy", "gcsfuse", "blobfuse", "image"]


WEIGHTS_VOLUME = "weights"
"""The pod volume copied weights are written to (an emptyDir on the node's disk)."""
SAFE_TO_EVICT_LOCAL_VOLUMES = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"
"""Volumes the cluster autoscaler may drop with the pod when it empties a node: copied weights
are fetched again wherever the pod starts, so they must not pin a GPU node forever."""


def local_volume_annotations(cluster: Cluster) -> dict[str, str]:
    """The copied weights' emptyDir named as safe to drop, where the autoscaler reads it."""
    if not targets.target(cluster.cloud).local_volume_annotation:
        return {}
    return {SAFE_TO_EVICT_LOCAL_VOLUMES: WEIGHTS_VOLUME}


MODEL_PATH_PLACEHOLDER = "{model_path}"
"""Written in a workload's args, command or env values, it becomes the model path."""
MODEL_PATH_ENV = "MODEL_PATH"
"""Environment variable holding the model path in the server container."""


@dataclass(frozen=True)
class Weights:
    """Where the weights come from and how the pod reaches them.

    One rule for every mode: the server finds the weights at ``model_path``,
    ``/models/<last part of the source>`` (or the path in the image). Copy mode mounts an
    emptyDir at /models and the init container copies into model_path; gcsfuse mounts the
    source's folder itself at model_path (``only-dir``).
    """

    mode: Mode
    source: str
    mount_path: str
    """Where the weights volume is mounted in the server container."""
    model_path: str
    """Where the server finds the weights inside the container."""
    init_image: str | None = None
    init_command: tuple[str, ...] = ()
    size_limit: str | None = None
    """emptyDir size (and ephemeral-storage request) for copied weights."""
    bucket: str | None = None
    only_dir: str | None = None
    mount_options: str | None = None
    init_requests: dict[str, str] = field(default_factory=dict)
    init_limits: dict[str, str] = field(default_factory=dict)
    init_env: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    """Pod annotations the weights need (the GKE Cloud Storage FUSE sidecar; the copied weights'
    volume as safe to evict for the cluster autoscaler)."""
    pod_labels: dict[str, str] = field(default_factory=dict)
    """Pod labels the weights need (AKS workload identity)."""
    driver: str | None = None
    """CSI driver of a mounted volume other than GKE's FUSE (blobfuse)."""
    volume_attributes: dict[str, str] = field(default_factory=dict)
    """That volume's attributes, except the identity's client id (renderers add it)."""
    sub_path: str | None = None
    """The folder inside the mounted volume that the server sees at model_path."""
    reader: BlobReader | None = None
    """The Azure identity the pods read the weights as (AKS, Azure Blob weights)."""
    cache_memory: str | None = None
    """gcsfuse with its file cache in memory: the size of the RAM-backed cache volume."""
    cache_memory_mib: int = 0
    """The same in MiB: what the FUSE sidecar requests beyond its own memory."""
    prefetch: bool = False
    """gcsfuse: an init container reads the model through the mount (``init_*``) to fill the
    file cache before the server starts."""

    @property
    def has_init(self) -> bool:
        """An init container runs before the server: the copy, or the FUSE prefetch."""
        return self.mode == "copy" or self.prefetch


def model_path(model: ModelWeights) -> str:
    """Where the server finds the weights: the same path whether they are copied or mounted."""
    _scheme, bucket, path = split_source(model.source)
    if model.mount == "image":
        return "/" + f"{bucket}/{path}".strip("/")
    basename = (path.rsplit("/", 1)[-1] if path else bucket) or "model"
    return f"{MOUNT_PATH}/{basename}"


def copy_size_gib(size_gb: float) -> int:
    """emptyDir for copied weights: 10% over their size for the copier's temporary files, + 1."""
    return math.ceil(size_gb * 1.1) + 1


def fuse_cache_gib(size_gb: float) -> int:
    """Boot disk a Cloud Storage FUSE replica's file cache may fill: the weights once, as copied
    weights take (a replica reads each file once; more cache buys nothing)."""
    return copy_size_gib(size_gb)


FUSE_CACHE_VOLUME = "gke-gcsfuse-cache"
"""The pod volume GKE's webhook mounts as the sidecar's file cache when the pod defines it
(gcs-fuse-csi-driver ``SidecarContainerCacheVolumeName``); otherwise it adds an emptyDir."""
FUSE_GROUP = 65534
"""The pod's fsGroup when the FUSE cache is a volume of the pod's own: the sidecar runs as
65534 (gcs-fuse-csi-driver NobodyGID) and writes there only through the volume's group."""
FUSE_OWN_OPTIONS = ("only-dir", "file-cache:max-size-mb")
"""Mount options gpuplat derives from the spec, which a workload's own options may not set."""


def _fuse_options(size_gb: float, path: str, more: tuple[str, ...] = ()) -> str:
    # The cache's own bound, 1 GiB under the sidecar's ephemeral-storage limit (its logs and
    # temporary files take the rest), so reaching it evicts old files rather than the pod.
    cache_mib = (fuse_cache_gib(size_gb) - 1) * 1024
    options = (*GCSFUSE_OPTIONS, f"file-cache:max-size-mb:{cache_mib}", *more)
    return ",".join((*options, f"only-dir={path}") if path else options)


def weights_for(workload: Workload, cluster: Cluster) -> Weights:
    """The weights plan of a workload on a cluster."""
    model = workload.model
    scheme, bucket, path = split_source(model.source)
    target = model_path(model)
    if model.mount == "image":
        return Weights("image", model.source, MOUNT_PATH, target)
    blob = blob_location(model.source)
    if blob is not None:
        return _blob(workload, cluster, blob, target)
    if model.mount == "gcsfuse" and "gcsfuse" in targets.target(cluster.cloud).weight_mounts:
        options = _fuse_options(model.size_gb, path, tuple(model.fuse_mount_options))
        cache = f"{fuse_cache_gib(model.size_gb)}Gi"
        memory = model.fuse_cache == "memory"
        cache_mib = fuse_cache_gib(model.size_gb) * 1024 if memory else 0
        annotations = dict(GCSFUSE_ANNOTATIONS)
        if memory:
            # The RAM cache's pages are the sidecar's: requested with it, so the scheduler
            # counts them against the node's memory (the volume's sizeLimit bounds them).
            annotations["gke-gcsfuse/memory-request"] = f"{FUSE_SIDECAR_MEMORY_MIB + cache_mib}Mi"
        else:
            # Requested, so the scheduler counts the cache against the node's disk, and
            # limited, so a runaway cache evicts its own pod, not its neighbours.
            annotations["gke-gcsfuse/ephemeral-storage-request"] = cache
            annotations["gke-gcsfuse/ephemeral-storage-limit"] = cache
        mounted = Weights(
            "gcsfuse",
            model.source,
            target,
            target,
            bucket=bucket,
            only_dir=path or None,
            mount_options=options,
            annotations=dict(sorted(annotations.items())),
            cache_memory=cache if memory else None,
            cache_memory_mib=cache_mib,
        )
        return _prefetched(mounted) if model.fuse_prefetch else mounted
    size_limit = f"{copy_size_gib(model.size_gb)}Gi"
    image, command = _copier(scheme, model.source, target, workload.image)
    return Weights(
        "copy",
        model.source,
        MOUNT_PATH,
        target,
        image,
        command,
        size_limit,
        annotations=local_volume_annotations(cluster),
    )


def _prefetched(weights: Weights) -> Weights:
    """The mount, with an init container that reads every file of the model once through it.

    GKE's webhook injects the FUSE sidecar as the pod's first init container (a native sidecar,
    restartPolicy Always), so the mount is served when this one runs; each file is read whole,
    with the mount's parallel downloads per file, into the sidecar's file cache.
    """
    script = f"find {weights.model_path} -type f -exec cat {{}} + > /dev/null"
    return replace(
        weights,
        prefetch=True,
        init_image=PREFETCH_IMAGE,
        init_command=("sh", "-c", script),
        init_requests=dict(PREFETCH_REQUESTS),
        init_limits=dict(PREFETCH_LIMITS),
    )


def _blob(workload: Workload, cluster: Cluster, blob: BlobLocation, target: str) -> Weights:
    """Azure Blob weights: copied by azcopy or mounted by the Blob CSI driver, read as the
    workload's own identity where the cluster's cloud gives pods one (AKS)."""
    model = workload.model
    cloud = targets.target(cluster.cloud)
    reader = blob_reader(workload, cluster) if cloud.blob_workload_identity else None
    labels = {WORKLOAD_IDENTITY_LABEL: "true"} if reader is not None else {}
    if model.mount == "blobfuse" and "blobfuse" in cloud.weight_mounts:
        attributes = {"storageaccount": blob.account, "containerName": blob.container}
        if reader is not None:
            # The driver mounts with the pod's federated token: no account key is fetched,
            # so a read-only role on the container is all the identity holds.
            attributes["resourcegroup"] = reader.resource_group
            attributes["mountWithWorkloadIdentityToken"] = "true"
        return Weights(
            "blobfuse",
            model.source,
            target,
            target,
            pod_labels=labels,
            driver=BLOB_DRIVER,
            volume_attributes=attributes,
            sub_path=blob.path or None,
            reader=reader,
        )
    folder = blob.url + "/*"
    # azcopy signs in with the pod's federated token (the webhook sets AZURE_CLIENT_ID and
    # AZURE_FEDERATED_TOKEN_FILE); without an identity it reads a public container.
    env = {"AZCOPY_AUTO_LOGIN_TYPE": "WORKLOAD"} if reader is not None else {}
    return Weights(
        "copy",
        model.source,
        MOUNT_PATH,
        target,
        AZCOPY_IMAGE,
        ("azcopy", "copy", folder, target, "--recursive"),
        f"{copy_size_gib(model.size_gb)}Gi",
        init_env=env,
        annotations=local_volume_annotations(cluster),
        pod_labels=labels,
        reader=reader,
    )


def _copier(
    scheme: str, source: str, target: str, server_image: str
) -> tuple[str, tuple[str, ...]]:
    if scheme == "gs":
        return GCLOUD_IMAGE, ("gcloud", "storage", "rsync", "--recursive", source, target)
    if scheme == "s3":
        return AWS_CLI_IMAGE, ("aws", "s3", "sync", "--only-show-errors", source, target)
    if scheme == "hf":
        repo = source.removeprefix("hf://")
        # Model-server images ship the Hugging Face client; reuse the image already pulled.
        return server_image, ("huggingface-cli", "download", repo, "--local-dir", target)
    return CURL_IMAGE, (
        "curl",
        "--fail",
        "--location",
        "--create-dirs",
        "--output",
        target,
        source,
    )
