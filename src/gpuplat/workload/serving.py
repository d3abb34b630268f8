"""One workload on one cluster: every number and choice its Kubernetes objects need.

The plan is the one source of the serving objects: the model-server and scale-to-zero module
inputs (render/serving.py) and the plain manifests (manifests/objects.py) are both written from
it, and the parity test (tests/parity) holds the two renderings equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from gpuplat.catalog.servers import server_of
from gpuplat.labels import POOL_LABEL
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.model.workload import Role
from gpuplat.spec.resolve import workload_pools
from gpuplat.spec.roles import bounds, on
from gpuplat.targets import device_plugin, target
from gpuplat.targets.fabric import HostMount
from gpuplat.workload.budget import StartupBudget, startup_budget
from gpuplat.workload.capacity import left_for
from gpuplat.workload.diskshare import disk_share_mbps
from gpuplat.workload.fabric import group_setting
from gpuplat.workload.group import GroupPlan, hugepages_note, memory_beside, plan_group
from gpuplat.workload.health import Probes, probes
from gpuplat.workload.ladders import gpu_quota, ladder_selector, placement
from gpuplat.workload.resources import replica_resources
from gpuplat.workload.rollout import Rollout, recreate, rollout, running_at_rollout
from gpuplat.workload.scaling import (
    AutoscaleKind,
    Scaler,
    autoscale_kind,
    metrics_port,
    scaler_for,
    scrape_of,
)
from gpuplat.workload.weights import (
    MODEL_PATH_ENV,
    MODEL_PATH_PLACEHOLDER,
    Weights,
    weights_for,
)
from gpuplat.workload.zerodoor import server_address, with_door

GPU_RESOURCE = "nvidia.com/gpu"
DRA_DEVICE_CLASS = "gpu.nvidia.com"
PRE_STOP_SECONDS = 15
"""Time for endpoints to drop the pod before the server stops taking requests."""
PRIORITY_VALUES = {"critical": 100000, "high": 10000, "normal": 1000, "batch": 100}
DISRUPTION_MAX_UNAVAILABLE = 1
"""Replicas a node drain or upgrade may evict at once: progress without an outage."""
SHM_MULTI_GPU = "8Gi"
SHM_ONE_GPU = "1Gi"
"""Shared memory for NCCL and multi-process servers (the container default, 64Mi, is too small);
several GPUs per replica exchange tensors through it."""


@dataclass(frozen=True)
class KeyRef:
    """An environment value read from one key of a Secret or a ConfigMap."""

    kind: Literal["secret", "config_map"]
    name: str
    key: str
    optional: bool = False


@dataclass(frozen=True)
class EnvVar:
    """One environment variable of the server: a literal value or a key reference."""

    name: str
    value: str | None = None
    ref: KeyRef | None = None


@dataclass(frozen=True)
class Preference:
    """A preferred pool and its scheduling weight (earlier pools win when several have room)."""

    pool: str
    weight: int


@dataclass(frozen=True)
class ServingPlan:
    """Everything the model-server module and the plain manifests render."""

    name: str
    namespace: str
    cluster: str
    cloud: str
    primary: bool
    """The placement serves (role active); a standby is warm or cold (spec/roles.py)."""
    role: Role
    image: str
    command: tuple[str, ...]
    args: tuple[str, ...]
    port: int
    metrics_port: int | None
    """The container port of a server that serves /metrics on a port of its own (Triton:
    8002), named ``metrics``; None: metrics on ``port``."""
    env: tuple[EnvVar, ...]
    replicas_min: int
    replicas_max: int
    gpu_count: int
    dra: bool
    pools: tuple[str, ...]
    """Node pools the pods may run on, most preferred first."""
    preferred: tuple[Preference, ...]
    tolerations: tuple[dict[str, str], ...]
    node_selector: dict[str, str]
    """Node labels the pods select besides their pools (GKE: a capacity ladder's class)."""
    gpu_quota: int | None
    """GPUs the workload's namespace may request (a ResourceQuota): the one cap of the capacity
    ladders it runs on, which no cloud sums over the ladder's node pools; None off ladders."""
    cpu: str
    memory: str
    ephemeral_storage: str | None
    startup: StartupBudget
    probes: Probes
    pre_stop_seconds: int
    grace_seconds: int
    rollout: Rollout
    progress_deadline_seconds: int
    priority_class: str
    priority_value: int
    weights: Weights
    shm_size: str
    disruption_max_unavailable: int
    autoscale: AutoscaleKind
    scaler: Scaler | None
    labels: dict[str, str] = field(default_factory=dict)
    """Labels of every object of the workload."""
    selector: dict[str, str] = field(default_factory=dict)
    pod_labels: dict[str, str] = field(default_factory=dict)
    pod_annotations: dict[str, str] = field(default_factory=dict)
    automount_token: bool = False
    """Mount a service account token: only the Cloud Storage FUSE sidecar needs one."""
    devices: dict[str, str] = field(default_factory=dict)
    """Extended resources besides GPUs each replica takes (EKS: vpc.amazonaws.com/efa)."""
    host_mounts: tuple[HostMount, ...] = ()  # node directories a group's fabric reads (gIB)
    load_balancer: dict[str, str] | None = None
    """The Service is a LoadBalancer with these annotations (the cloud's, for the spec's
    ``address.scheme``); None: a ClusterIP Service, reached only inside the cluster."""
    device_class: str = DRA_DEVICE_CLASS
    pool_label: str = POOL_LABEL
    requests_reason: str = ""
    """Where the CPU and memory requests come from: the node's arithmetic, for people."""
    group: GroupPlan | None = None
    """A multi-host replica: a LeaderWorkerSet group (workload/group.py), not a Deployment."""
    kueue: bool = False  # the group is admitted whole by Kueue (workload/queue.py)
    topology: tuple[str, ...] = ()  # Kueue's topology levels for the group (workload/fabric.py)

    @property
    def replicas_initial(self) -> int:
        return self.replicas_min

    @property
    def requests(self) -> dict[str, str]:
        """Requests of the server container (GPUs too, unless they come from a DRA claim)."""
        out = {"cpu": self.cpu, "memory": self.memory, **self._gpus(), **self.devices}
        if self.ephemeral_storage is not None:
            out["ephemeral-storage"] = self.ephemeral_storage
        return out

    @property
    def limits(self) -> dict[str, str]:
        """Memory is capped at its request, so a leaking server is restarted instead of starving
        its neighbours on a shared GPU node; CPU is not capped (throttling stalls token
        generation); GPU limits equal requests, as Kubernetes requires."""
        return {"memory": self.memory, **self._gpus(), **self.devices}

    def _gpus(self) -> dict[str, str]:
        return {} if self.dra else {GPU_RESOURCE: str(self.gpu_count)}


def serving_plans(env: EnvSpec, cluster: str | None = None) -> list[ServingPlan]:
    """Every (workload, cluster) pair of an environment, in spec order; only those on
    ``cluster`` when given (a cluster's serving root needs no other cluster's plans)."""
    clusters = {c.name: c for c in env.spec.clusters}
    return [
        plan_workload(env.spec, workload, clusters[name])
        for workload in env.spec.workloads
        for name in workload.clusters
        if cluster is None or name == cluster
    ]


def plan_workload(spec: Spec, workload: Workload, cluster: Cluster) -> ServingPlan:
    """The plan of ``workload`` on ``cluster`` (one of its clusters), for its role there.

    The workload's per-cluster overrides (``placements``) are applied first, and its replica
    bounds are its role's (spec/roles.py): the same numbers go to the Deployment and
    KEDA's ScaledObject.
    """
    pools = workload_pools(spec, workload)[cluster.name]
    role = bounds(workload, cluster.name)
    workload = on(workload, cluster.name)
    weights = weights_for(workload, cluster)
    share = disk_share_mbps(cluster, pools, workload)
    budget = startup_budget(
        workload.model.size_gb,
        workload.model.load_bandwidth_mbps,
        workload.image_pull_time,
        workload.load_time_budget,
        copied=weights.has_init,
        # A cache in memory is filled at the network's rate; on a disk, at the disk's share.
        # A prefetched cache is filled before the server starts: a copy, read back at the
        # network's rate (the load from the cache is not taken to be faster).
        copy_mbps=None if weights.prefetch and weights.cache_memory is not None else share,
        fill_mbps=share
        if weights.mode == "gcsfuse" and weights.cache_memory is None and not weights.prefetch
        else None,
    )
    low, high = role.low, role.high
    node_selector, class_tolerations = ladder_selector(cluster, pools)
    pool_label, pool_values = placement(cluster, pools)
    fits, capacity_text = left_for(spec, workload, cluster)
    fixed = autoscale_kind(workload, low, high) == "none"
    running = running_at_rollout(low, high, scaled=not fixed)
    # A multi-host replica is a group of whole nodes: placed, surged and drained as one.
    size = workload.group_size
    fits //= size
    plan_rollout = rollout(
        fits, workload.gpus * size, running, capacity_text, fixed=fixed, group_nodes=size
    )
    if workload.rollout_strategy == "recreate":
        plan_rollout = recreate(plan_rollout)
    resources = replica_resources(
        spec,
        cluster,
        pools,
        workload,
        fuse=weights.mode == "gcsfuse",
        cache_mib=weights.cache_memory_mib,
    )
    if weights.mode == "copy":
        weights = replace(
            weights,
            init_requests=dict(resources.init_requests),
            init_limits=dict(resources.init_limits),
        )
    selector = {"gpuplat.dev/workload": workload.name}
    server = server_of(workload.server, workload.image)
    server_name = server.name if server is not None else None
    setting = group_setting(spec, cluster, pools, workload, server_name)
    fabric = setting.fabric
    group = plan_group(
        workload,
        server_name,
        weights.model_path,
        tuple(_model_path(a, weights) for a in workload.args),
        selector,
        (plan_rollout.max_surge, plan_rollout.max_unavailable),
        prelude=fabric.prelude,
    )
    if group is not None:
        group = replace(group, capabilities=fabric.capabilities, sidecar=fabric.sidecar)
    annotations = {**setting.annotations, **workload.pod_annotations, **weights.annotations}
    labels = {
        "app.kubernetes.io/name": workload.name,
        "app.kubernetes.io/managed-by": "gpuplat",
        "gpuplat.dev/workload": workload.name,
    }
    return ServingPlan(
        name=workload.name,
        namespace=workload.name,
        cluster=cluster.name,
        cloud=cluster.cloud,
        primary=role.role == "active",
        role=role.role,
        image=workload.image,
        command=tuple(_model_path(c, weights) for c in workload.command),
        args=tuple(_model_path(a, weights) for a in workload.args),
        port=workload.port,
        metrics_port=metrics_port(workload),
        env=_env(workload, weights, fabric.env),
        replicas_min=low,
        replicas_max=high,
        gpu_count=workload.gpus,
        dra=device_plugin(spec, cluster) == "dra",
        pools=pool_values,
        pool_label=pool_label,
        preferred=_preferred(pools) if pool_label == POOL_LABEL else (),
        tolerations=_tolerations(cluster, pools) + class_tolerations,
        node_selector=node_selector,
        gpu_quota=gpu_quota(cluster, pools, dra=device_plugin(spec, cluster) == "dra"),
        cpu=resources.cpu,
        memory=memory_beside(
            resources.memory, fabric.resources, explicit=workload.resources.memory is not None
        ),
        ephemeral_storage=weights.size_limit,
        startup=budget,
        probes=probes(workload.health_path, budget),
        pre_stop_seconds=PRE_STOP_SECONDS,
        grace_seconds=PRE_STOP_SECONDS + workload.drain_time,
        rollout=plan_rollout,
        progress_deadline_seconds=budget.progress_deadline_seconds,
        priority_class=f"gpuplat-{workload.name}",
        priority_value=PRIORITY_VALUES[workload.priority],
        weights=weights,
        shm_size=SHM_MULTI_GPU if workload.gpus > 1 else SHM_ONE_GPU,
        disruption_max_unavailable=DISRUPTION_MAX_UNAVAILABLE,
        autoscale=autoscale_kind(workload, low, high),
        scaler=with_door(
            scaler_for(
                workload,
                workload.name,
                low,
                min(high, max(fits, low, 1)),
                managed=target(cluster.cloud).metrics_query(
                    cluster, spec.addons.metrics.prometheus
                ),
                scale_out_seconds=budget.node_start_seconds
                + budget.before_probes_seconds
                + budget.load_seconds,
                wait_seconds=budget.progress_deadline_seconds,
                scrape=scrape_of(workload),
            ),
            workload,
            cluster.cloud,
        ),
        labels=labels,
        selector=selector,
        pod_labels=dict(sorted({**workload.pod_labels, **weights.pod_labels, **labels}.items())),
        pod_annotations=dict(sorted(annotations.items())),
        host_mounts=fabric.mounts,
        automount_token=weights.mode == "gcsfuse",
        devices={**target(cluster.cloud).replica_devices(pools, workload.gpus), **fabric.resources},
        requests_reason=resources.explain(workload.gpus) + hugepages_note(fabric.resources),
        group=group,
        kueue=group is not None and spec.addons.gang_scheduling.kueue,
        topology=setting.topology,
        load_balancer=server_address(workload, cluster.cloud),
    )


def _model_path(text: str, weights: Weights) -> str:
    return text.replace(MODEL_PATH_PLACEHOLDER, weights.model_path)


def _env(
    workload: Workload, weights: Weights, fabric: dict[str, str] | None = None
) -> tuple[EnvVar, ...]:
    """The server's environment, sorted by name, with MODEL_PATH unless the spec sets it, and
    a multi-host group's fabric settings unless the spec sets them."""
    out = [EnvVar(MODEL_PATH_ENV, weights.model_path)] if MODEL_PATH_ENV not in workload.env else []
    out += [EnvVar(k, v) for k, v in (fabric or {}).items() if k not in workload.env]
    for name, value in workload.env.items():
        if isinstance(value, str):
            out.append(EnvVar(name, _model_path(value, weights)))
        elif value.secret is not None:
            out.append(EnvVar(name, ref=KeyRef("secret", value.secret, value.key, value.optional)))
        elif value.config_map is not None:
            ref = KeyRef("config_map", value.config_map, value.key, value.optional)
            out.append(EnvVar(name, ref=ref))
    return tuple(sorted(out, key=lambda v: v.name))


def _preferred(pools: list[NodePool]) -> tuple[Preference, ...]:
    if len(pools) < 2:
        return ()
    return tuple(Preference(p.name, max(1, 100 - 10 * i)) for i, p in enumerate(pools))


def _tolerations(cluster: Cluster, pools: list[NodePool]) -> tuple[dict[str, str], ...]:
    gpu = {"key": GPU_RESOURCE, "operator": "Exists", "effect": "NoSchedule"}
    seen: dict[tuple[str, str, str], dict[str, str]] = {(GPU_RESOURCE, "", "NoSchedule"): gpu}
    cloud = target(cluster.cloud)
    for pool in pools:
        # The pool's taints as its nodes carry them: the spec's, and the cloud's own (AKS
        # taints spot nodes by itself).
        for taint in cloud.node_taints(pool):
            key = (taint.key, taint.value, taint.effect)
            if key not in seen and not (taint.key == GPU_RESOURCE and taint.effect == "NoSchedule"):
                seen[key] = {
                    "key": taint.key,
                    "operator": "Equal",
                    "value": taint.value,
                    "effect": taint.effect,
                }
    return tuple(seen.values())
