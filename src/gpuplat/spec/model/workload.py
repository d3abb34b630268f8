"""Model-serving workloads."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.catalog.servers import ServerName
from gpuplat.spec.model.base import Duration, SpecModel
from gpuplat.spec.model.frontdoor import FrontDoor
from gpuplat.spec.model.multihost import MultiHost


class ModelWeights(SpecModel):
    """The weights the server loads before it can answer."""

    source: str = Field(
        description="Where the weights live: gs://bucket/path, s3://bucket/path, "
        "az://account/container/path or https://account.blob.core.windows.net/container/path "
        "(Azure Blob), hf://org/model, or a path already on the image (file:///models/x)."
    )
    size_gb: float = Field(gt=0, description="Size of the weights in GB.")
    load_bandwidth_mbps: float = Field(
        400.0,
        gt=0,
        description="Sustained MB/s at which weights reach GPU memory (download + load). "
        "Sizes the startup probe.",
    )
    mount: Literal["copy", "gcsfuse", "blobfuse", "image"] = Field(
        "copy",
        description="copy: an init container copies the weights into a volume; gcsfuse: mount "
        "a gs:// bucket with the GKE Cloud Storage FUSE CSI driver; blobfuse: mount an Azure "
        "Blob container with the AKS Blob CSI driver (blobfuse2); image: the weights are in "
        "the image.",
    )
    kv_cache_gb: float = Field(
        0.0,
        ge=0,
        description="GPU memory the KV cache of one replica needs, GB (context tokens x "
        "sequences x KV bytes per token): added to the weights when gpuplat checks that a "
        "replica (or a multi-host group) fits its GPUs. Default: 0, the weights alone.",
    )
    fuse_cache: Literal["disk", "memory"] = Field(
        "disk",
        description="gcsfuse: where each replica's Cloud Storage FUSE file cache lives. disk: "
        "the node's ephemeral storage (its boot disk, or its local SSDs with "
        "disk.local_ssd_count), shared by the replicas a node starts at once; memory: a "
        "RAM-backed volume (the sidecar's gke-gcsfuse-cache, as accelerated-platforms mounts "
        "it), counted in the replica's memory request, nothing written to a disk.",
    )
    fuse_prefetch: bool = Field(
        False,
        description="gcsfuse: an init container reads every file of the model through the "
        "mount before the server starts, filling the file cache (accelerated-platforms' "
        "prefetch), so the server's load reads from the cache. The fill is then counted as a "
        "copy before the probes start.",
    )
    fuse_mount_options: list[str] = Field(
        default_factory=list,
        description="gcsfuse: more Cloud Storage FUSE mount options, after gpuplat's (e.g. "
        "max-conns-per-host=500). The options gpuplat sets from the spec (only-dir, "
        "file-cache:max-size-mb) are refused here.",
    )
    storage_resource_group: str | None = Field(
        None,
        description="Azure Blob weights on AKS: the resource group of the storage account, for "
        "the read-only role on its container. Default: the cluster's resource group.",
    )


class Replicas(SpecModel):
    """How many copies of the server run."""

    min: int = Field(1, ge=0, description="Fewest replicas (0 needs scale_to_zero).")
    max: int = Field(1, ge=1, description="Most replicas.")


class Autoscale(SpecModel):
    """The metric the replica count follows."""

    metric: str | None = Field(
        None,
        description="Per-pod gauge of the model server to scale on, one it exports (e.g. "
        "vllm:num_requests_waiting, tgi_queue_size, sglang:num_queue_reqs, "
        "nv_inference_pending_request_count). KEDA's prometheus trigger follows the sum over the "
        "workload's pods. Default: none (fixed at replicas.min unless scale_to_zero).",
    )
    target: float = Field(5.0, gt=0, description="Target average value of the metric per pod.")
    prometheus_address: str | None = Field(
        None,
        description="Prometheus query address of the cluster's metrics, when it is not the one "
        "gpuplat chooses per cloud (see the docs: Rendering, Autoscaling), e.g. "
        "http://prometheus.monitoring:9090.",
    )


class Resources(SpecModel):
    """CPU and memory for each replica (GPUs come from `gpus`)."""

    cpu: str | None = Field(None, description='CPU request, e.g. "8". Default: from the shape.')
    memory: str | None = Field(
        None, description='Memory request, e.g. "64Gi". Default: from the shape.'
    )


class EnvFrom(SpecModel):
    """An environment value read from one key of a Secret or a ConfigMap in the namespace."""

    secret: str | None = Field(None, description="Name of the Secret (e.g. hf-token).")
    config_map: str | None = Field(None, description="Name of the ConfigMap.")
    key: str = Field(description="Key in the Secret or ConfigMap.")
    optional: bool = Field(
        False, description="Start the server even when the Secret, ConfigMap or key is missing."
    )


Role = Literal["active", "warm", "cold"]
"""What a placement does: serves (active), runs warm_replicas ready to take over (warm), or
runs none until traffic or a failover arrives (cold)."""


class Address(SpecModel):
    """An address of the workload reachable from outside its cluster, on every cluster."""

    scheme: Literal["internal", "external"] = Field(
        description="internal: a load balancer inside the cluster's network (its VPC or "
        "virtual network, and networks peered with it); external: a public one. The model "
        "server's Service becomes a LoadBalancer with the cloud's annotations for that "
        "scheme; `placements` reports its address. A scale_to_zero workload's load balancer "
        "is in front of the KEDA HTTP interceptor instead, which holds requests while a "
        "replica starts."
    )
    hosts: list[str] = Field(
        default_factory=list,
        description="Host names clients send in the Host header through the address. The "
        "KEDA HTTP interceptor of a scale_to_zero workload routes only the names it knows "
        "(front_door.name is added for you); the model server's own Service ignores them.",
    )


class WorkloadPlacement(SpecModel):
    """The workload on one of its clusters: its role, and what really differs there."""

    role: Role | None = Field(
        None,
        description="active (serves: replicas.min..max), warm (a standby running "
        "warm_replicas, scaling up with the autoscaler when traffic arrives) or cold (a standby "
        "with 0 replicas: scale_to_zero workloads start on traffic, others on `gpuplat "
        "failover`). Default: active for the first of `clusters`, cold for the others.",
    )
    warm_replicas: int = Field(1, ge=1, description="warm: replicas kept running.")
    image: str | None = Field(None, description="The image on this cluster, when it differs.")
    args: list[str] | None = Field(
        None, description="Arguments on this cluster (e.g. another --gpu-memory-utilization)."
    )
    gpus: int | None = Field(None, ge=1, description="GPUs per replica on this cluster.")
    replicas: Replicas | None = Field(None, description="Replica bounds on this cluster.")


class Workload(SpecModel):
    """A model server: a slow-starting, weight-loading GPU process."""

    name: str = Field(description="Workload name, unique in the spec (a DNS label).")
    image: str = Field(description="Container image, ideally pinned by digest.")
    command: list[str] = Field(default_factory=list, description="Entrypoint override.")
    args: list[str] = Field(
        default_factory=list,
        description="Arguments; {model_path} is replaced by where the weights are, e.g. "
        "--model={model_path}.",
    )
    port: int = Field(8000, ge=1, le=65535, description="HTTP port the server listens on.")
    health_path: str = Field("/health", description="HTTP path that answers 200 once ready.")
    env: dict[str, str | EnvFrom] = Field(
        default_factory=dict,
        description="Environment variables: a value, or {secret|config_map, key} to read one "
        "key of a Secret or ConfigMap (e.g. HF_TOKEN: {secret: hf-token, key: token}). Values, "
        "args and command may say {model_path}: where the server finds the weights. MODEL_PATH "
        "is set to it unless you set it.",
    )
    pod_labels: dict[str, str] = Field(
        default_factory=dict,
        description="Extra labels of the server's pods (cost allocation, service mesh).",
    )
    pod_annotations: dict[str, str] = Field(
        default_factory=dict, description="Extra annotations of the server's pods."
    )
    model: ModelWeights
    gpus: int = Field(
        1,
        ge=1,
        description="GPUs per replica: whole GPUs, or MIG instances / shared slices on pools "
        "with sharing.",
    )
    pool: str | None = Field(
        None, description="Node pool name to run on, in every cluster of `clusters`."
    )
    accelerator: str | None = Field(
        None, description="Alternatively: any pool with this GPU (e.g. L4, nvidia-l4)."
    )
    replicas: Replicas = Field(default_factory=Replicas)
    multi_host: MultiHost | None = Field(
        None,
        description="Serve each replica from several nodes: a LeaderWorkerSet group of "
        "`multi_host.nodes` pods (vLLM over Ray, or SGLang's own launcher). Default: one pod "
        "per replica, on one node.",
    )
    server: ServerName | None = Field(
        None,
        description="The model server the image runs (vllm, tgi, sglang, triton): where it "
        "serves /metrics and which signals it exports. Default: from the image.",
    )
    scale_to_zero: bool = Field(
        False, description="Scale to 0 replicas when idle (KEDA). Needs a pool with min_nodes 0."
    )
    autoscaling: Autoscale = Field(default_factory=Autoscale)
    image_pull_time: Duration = Field(
        180, description="Expected time to pull the image onto a fresh node."
    )
    load_time_budget: Duration = Field(
        1200,
        description="Longest acceptable time from pod start to ready (pull + weight load). "
        "The startup probe, which starts after the image pull, allows what this leaves after "
        "the pull before restarting the pod.",
    )
    drain_time: Duration = Field(
        120,
        description="How long a stopping replica may finish in-flight requests (long "
        "generations) before it is killed. Holds on drains (upgrades, repairs, scale-down); a "
        "spot preemption gives only the cloud's notice (GKE ~15 s, EKS 2 min, AKS 30 s), which "
        "validate notes.",
    )
    resources: Resources = Field(default_factory=Resources)
    clusters: list[str] = Field(
        min_length=1, description="Clusters it may run on, in failover order."
    )
    address: Address | None = Field(
        None,
        description="An address reachable from outside each cluster (a LoadBalancer "
        "Service). Default: none (the in-cluster Service only).",
    )
    front_door: FrontDoor | None = Field(
        None,
        description="Weighted, health-checked DNS in front of the placements that gpuplat "
        "renders and a failover moves (needs address.scheme external). Default: none.",
    )
    placements: dict[str, WorkloadPlacement] = Field(
        default_factory=dict,
        description="Per cluster of `clusters` (by name): its role (active, warm or cold "
        "standby) and per-cluster overrides of image, args, gpus and replicas.",
    )
    rollout_strategy: Literal["rolling", "recreate"] = Field(
        "rolling",
        description="rolling: replace replicas one at a time (a surge pod only where the pools "
        "have room for it). recreate: every old replica stops before any new one starts "
        "(Deployment strategy Recreate, as accelerated-platforms' servers do): two versions "
        "never serve or hold GPUs at once, but the workload serves nothing until the new "
        "replicas are ready.",
    )
    priority: Literal["critical", "high", "normal", "batch"] = Field(
        "high", description="Scheduling priority class."
    )

    @property
    def group_size(self) -> int:
        """Pods (nodes) one replica takes: 1, or a multi-host group's nodes."""
        return 1 if self.multi_host is None else self.multi_host.nodes
