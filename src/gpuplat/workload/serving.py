"""One workload on one cluster: every number and choice its Kubernetes objects need."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import resolve_pool, workload_pools
from gpuplat.targets import device_plugin, pool_node_bounds
from gpuplat.workload.budget import StartupBudget, startup_budget
from gpuplat.workload.rollout import Rollout, rollout
from gpuplat.workload.weights import Weights, weights_for

GPU_RESOURCE = "nvidia.com/gpu"
DRA_DEVICE_CLASS = "gpu.nvidia.com"
PRE_STOP_SECONDS = 15
"""Time for endpoints to drop the pod before the server stops taking requests."""
PRIORITY_VALUES = {"critical": 100000, "high": 10000, "normal": 1000, "batch": 100}
READINESS_PERIOD = 5
LIVENESS_PERIOD = 10
LIVENESS_FAILURES = 6
"""A minute of failed health checks before a running server is restarted."""
SCALE_DOWN_COOLDOWN = 600
"""Seconds a scale-to-zero workload stays warm after the last request: GPUs reload slowly."""

AutoscaleKind = Literal["none", "hpa", "keda"]


@dataclass(frozen=True)
class ServingPlan:
    """Everything the model-server module and the plain manifests render."""

    name: str
    namespace: str
    cluster: str
    cloud: str
    primary: bool
    image: str
    command: tuple[str, ...]
    args: tuple[str, ...]
    port: int
    health_path: str
    env: dict[str, str]
    replicas_min: int
    replicas_max: int
    gpu_count: int
    dra: bool
    pools: tuple[str, ...]
    """Node pools the pods may run on, most preferred first."""
    tolerations: tuple[dict[str, str], ...]
    cpu: str
    memory: str
    ephemeral_storage: str | None
    startup: StartupBudget
    pre_stop_seconds: int
    grace_seconds: int
    rollout: Rollout
    priority_class: str
    priority_value: int
    weights: Weights
    autoscale: AutoscaleKind
    metric: str | None
    target: float
    prometheus_address: str | None
    labels: dict[str, str] = field(default_factory=dict)

    @property
    def replicas_initial(self) -> int:
        return self.replicas_min


def plan_workload(spec: Spec, workload: Workload, cluster: Cluster) -> ServingPlan:
    """The plan of ``workload`` on ``cluster`` (one of its clusters; the first is primary)."""
    pools = workload_pools(spec, workload)[cluster.name]
    primary = workload.clusters[0] == cluster.name
    budget = startup_budget(
        workload.model.size_gb,
        workload.model.load_bandwidth_mbps,
        workload.image_pull_time,
        workload.load_time_budget,
    )
    low, high = workload.replicas.min, workload.replicas.max
    if not primary and not workload.scale_to_zero:
        # A standby cluster keeps the objects, without replicas: failing over is moving the
        # cluster to the front of `clusters`, which only changes replica counts.
        low = high = 0
    capacity, capacity_text = _capacity(cluster, pools)
    plan_rollout = rollout(capacity, workload.gpus, max(high, 1), capacity_text)
    cpu, memory = _resources(cluster, pools, workload)
    weights = weights_for(workload, cluster)
    autoscale: AutoscaleKind = "none"
    if workload.scale_to_zero:
        autoscale = "keda"
    elif workload.autoscaling.metric is not None and high > low:
        autoscale = "hpa"
    return ServingPlan(
        name=workload.name,
        namespace=workload.name,
        cluster=cluster.name,
        cloud=cluster.cloud,
        primary=primary,
        image=workload.image,
        command=tuple(workload.command),
        args=tuple(workload.args),
        port=workload.port,
        health_path=workload.health_path,
        env=dict(sorted(workload.env.items())),
        replicas_min=low,
        replicas_max=high,
        gpu_count=workload.gpus,
        dra=device_plugin(spec, cluster) == "dra",
        pools=tuple(p.name for p in pools),
        tolerations=_tolerations(pools),
        cpu=cpu,
        memory=memory,
        ephemeral_storage=weights.size_limit,
        startup=budget,
        pre_stop_seconds=PRE_STOP_SECONDS,
        grace_seconds=PRE_STOP_SECONDS + workload.drain_time,
        rollout=plan_rollout,
        priority_class=f"gpuplat-{workload.name}",
        priority_value=PRIORITY_VALUES[workload.priority],
        weights=weights,
        autoscale=autoscale,
        metric=workload.autoscaling.metric,
        target=workload.autoscaling.target,
        prometheus_address=workload.autoscaling.prometheus_address,
        labels={
            "app.kubernetes.io/name": workload.name,
            "app.kubernetes.io/managed-by": "gpuplat",
            "gpuplat.dev/workload": workload.name,
        },
    )


def _capacity(cluster: Cluster, pools: list[NodePool]) -> tuple[int, str]:
    total = 0
    parts = []
    for pool in pools:
        gpu = resolve_pool(cluster, pool)
        nodes = pool_node_bounds(cluster, pool)[1]
        units = gpu.units_per_node or 0
        total += nodes * units
        parts.append(f"{pool.name} ({nodes} nodes x {units} GPU units)")
    return total, "at max_nodes, pool " + " + ".join(parts) if len(parts) == 1 else (
        "at max_nodes, pools " + " + ".join(parts)
    )


def _resources(cluster: Cluster, pools: list[NodePool], workload: Workload) -> tuple[str, str]:
    """CPU and memory requests: the replica's share of the smallest node it may land on."""
    cpu: float | None = None
    memory: float | None = None
    for pool in pools:
        gpu = resolve_pool(cluster, pool)
        if gpu.shape is None or not gpu.units_per_node:
            continue
        share = workload.gpus / gpu.units_per_node
        # Leave room for the kubelet, system daemons and the GPU add-on daemonsets.
        pool_cpu = max(1.0, math.floor((gpu.shape.vcpus * 0.9 - 0.5) * share))
        pool_mem = max(4.0, math.floor((float(gpu.shape.memory_gib) * 0.85 - 2.0) * share))
        cpu = pool_cpu if cpu is None else min(cpu, pool_cpu)
        memory = pool_mem if memory is None else min(memory, pool_mem)
    cpu_text = workload.resources.cpu or f"{int(cpu if cpu is not None else 4)}"
    mem_text = workload.resources.memory or f"{int(memory if memory is not None else 16)}Gi"
    return cpu_text, mem_text


def _tolerations(pools: list[NodePool]) -> tuple[dict[str, str], ...]:
    seen: dict[tuple[str, str, str], dict[str, str]] = {
        (GPU_RESOURCE, "", "NoSchedule"): {
            "key": GPU_RESOURCE,
            "operator": "Exists",
            "effect": "NoSchedule",
        }
    }
    for pool in pools:
        for taint in pool.taints:
            key = (taint.key, taint.value, taint.effect)
            if key not in seen and not (taint.key == GPU_RESOURCE and taint.effect == "NoSchedule"):
                seen[key] = {
                    "key": taint.key,
                    "operator": "Equal",
                    "value": taint.value,
                    "effect": taint.effect,
                }
    return tuple(seen.values())
