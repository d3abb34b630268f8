"""How a server's weights get onto its node: copied by an init container, or mounted."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from gpuplat import targets
from gpuplat.spec.model import Cluster, ModelWeights, Workload

MOUNT_PATH = "/models"
# Pinned copier images. The GKE FUSE sidecar and GCS/S3 copies are what read the weights,
# so a tag bump here is a reviewed change like any other.
GCLOUD_IMAGE = "gcr.io/google.com/cloudsdktool/google-cloud-cli:530.0.0-slim"
S5CMD_IMAGE = "peakcom/s5cmd:v2.3.0"
CURL_IMAGE = "curlimages/curl:8.11.1"
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

Mode = Literal["copy", "gcsfuse", "image"]


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
    annotations: dict[str, str] = field(default_factory=dict)
    """Pod annotations the weights need (the GKE Cloud Storage FUSE sidecar)."""


def _split(source: str) -> tuple[str, str, str]:
    """(scheme, bucket or host, path) of a URI such as ``gs://bucket/a/b``."""
    scheme, _, rest = source.partition("://")
    bucket, _, path = rest.partition("/")
    return scheme, bucket, path.strip("/")


def model_path(model: ModelWeights) -> str:
    """Where the server finds the weights: the same path whether they are copied or mounted."""
    _scheme, bucket, path = _split(model.source)
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


def _fuse_options(size_gb: float, path: str) -> str:
    # The cache's own bound, 1 GiB under the sidecar's ephemeral-storage limit (its logs and
    # temporary files take the rest), so reaching it evicts old files rather than the pod.
    cache_mib = (fuse_cache_gib(size_gb) - 1) * 1024
    options = (*GCSFUSE_OPTIONS, f"file-cache:max-size-mb:{cache_mib}")
    return ",".join((*options, f"only-dir={path}") if path else options)


def weights_for(workload: Workload, cluster: Cluster) -> Weights:
    """The weights plan of a workload on a cluster."""
    model = workload.model
    scheme, bucket, path = _split(model.source)
    target = model_path(model)
    if model.mount == "image":
        return Weights("image", model.source, MOUNT_PATH, target)
    if model.mount == "gcsfuse" and "gcsfuse" in targets.target(cluster.cloud).weight_mounts:
        options = _fuse_options(model.size_gb, path)
        cache = f"{fuse_cache_gib(model.size_gb)}Gi"
        annotations = {
            **GCSFUSE_ANNOTATIONS,
            # Requested, so the scheduler counts the cache against the node's disk, and limited,
            # so a runaway cache evicts its own pod, not its neighbours.
            "gke-gcsfuse/ephemeral-storage-request": cache,
            "gke-gcsfuse/ephemeral-storage-limit": cache,
        }
        return Weights(
            "gcsfuse",
            model.source,
            target,
            target,
            bucket=bucket,
            only_dir=path or None,
            mount_options=options,
            annotations=dict(sorted(annotations.items())),
        )
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
    )


def _copier(
    scheme: str, source: str, target: str, server_image: str
) -> tuple[str, tuple[str, ...]]:
    if scheme == "gs":
        return GCLOUD_IMAGE, ("gcloud", "storage", "rsync", "--recursive", source, target)
    if scheme == "s3":
        return S5CMD_IMAGE, ("/s5cmd", "sync", source.rstrip("/") + "/*", target + "/")
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
