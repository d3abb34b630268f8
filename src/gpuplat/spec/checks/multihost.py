"""Multi-host workloads: a group that can launch, fits its pool, and stays on one fabric; and
weights plus KV cache that fit the GPU memory a replica (or a group) gets.

A group's pods exchange tensors on every token: they must be on one pool (one machine shape, one
fabric, one placement group or compact policy) and in one zone; a group that cannot start whole
is a set of nodes paid for nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from gpuplat.spec.checks import signals
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import PoolGpu, resolve_pool
from gpuplat.targets import device_plugin, target
from gpuplat.workload.fabric import standing_nodes
from gpuplat.workload.group import launcher_of

MEMORY_FRACTION = 0.9
"""Share of each GPU's memory the server may fill with weights and KV cache: vLLM's default
--gpu-memory-utilization; the rest is CUDA context, activations and NCCL buffers."""


def check(spec: Spec, workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """What a group needs whatever its cluster: the LeaderWorkerSet controller, a server that
    launches across nodes, sizes that multiply to its GPUs, and the parts gpuplat does not
    render for groups yet."""
    multi = workload.multi_host
    if multi is None:
        return
    at = (*base, "multi_host")
    if not spec.addons.gang_scheduling.leader_worker_set:
        yield loc.error(
            at,
            "a multi-host workload is a LeaderWorkerSet, whose controller and CRD are not "
            "installed",
            "set addons.gang_scheduling.leader_worker_set: true",
            at_key=True,
        )
    server = signals.server_of(workload)
    if launcher_of(server.name if server else None) is None:
        said = f"runs {server.name}" if server is not None else "runs a server gpuplat cannot tell"
        yield loc.error(
            at,
            f"multi_host needs vLLM (over Ray) or SGLang; the workload {said}",
            "set server: vllm or sglang, or serve the model from one node",
            at_key=True,
        )
    if workload.command:
        yield loc.error(
            (*base, "command"),
            "a multi-host group's commands are gpuplat's (Ray head and workers, or SGLang's "
            "node ranks)",
            "remove command; put the server's own flags in args",
            at_key=True,
        )
    yield from _dra_queue(spec, workload, at, loc)
    if multi.topology and not spec.addons.gang_scheduling.kueue:
        yield loc.error(
            (*at, "topology"),
            "topology-aware placement is Kueue's, which is not installed",
            "set addons.gang_scheduling.kueue: true, or remove multi_host.topology",
        )
    tensor, pipeline = multi.sizes(workload.gpus)
    total = multi.nodes * workload.gpus
    if tensor * pipeline != total:
        yield loc.error(
            (*at, "tensor_parallel" if multi.tensor_parallel is not None else "pipeline_parallel"),
            f"tensor_parallel {tensor} x pipeline_parallel {pipeline} = {tensor * pipeline}, but "
            f"a group has {multi.nodes} nodes x {workload.gpus} GPUs = {total}",
            f"use sizes whose product is {total}, e.g. tensor_parallel {workload.gpus} x "
            f"pipeline_parallel {multi.nodes}",
        )
    if workload.scale_to_zero:
        yield loc.error(
            (*base, "scale_to_zero"),
            "scale to zero is refused for multi-host groups: the first request at zero would "
            "wait for a whole group's cold start (every node started, the image pulled and the "
            "weights copied on each node, then loaded: about 53 minutes for the 405B example, "
            "docs/multi-host.md), longer than load balancers and clients hold a request; a group "
            "is autoscaled on a server metric from one group up",
            "remove scale_to_zero; autoscale on the server's queue (autoscaling.metric) with "
            "replicas.min of 1 or more",
            at_key=True,
        )


def _dra_queue(spec: Spec, workload: Workload, at: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """With DRA the group's pods claim their GPUs through the workload's ResourceClaimTemplate
    and request no nvidia.com/gpu: Kueue's quota, which counts requests, no longer holds a
    group back until its GPUs are free.

    Kueue 0.17.3 can count claimed devices (pkg/dra/claims.go: a ResourceClaimTemplate's
    ``exactly`` requests of ExactCount without selectors, constraints or config, which is what
    gpuplat's template is), but only behind the DynamicResourceAllocation feature gate, alpha
    and off by default since 0.14 (pkg/features/kube_features.go), and only for the device
    classes its manager configuration maps to a quota resource (``resources.
    deviceClassMappings``, pkg/config/validation.go). gpuplat installs Kueue with neither, so
    it warns rather than promise gang admission by GPUs."""
    if not spec.addons.gang_scheduling.kueue:
        return
    clusters = {c.name: c for c in spec.clusters}
    on = [n for n in workload.clusters if n in clusters]
    dra = [n for n in on if device_plugin(spec, clusters[n]) == "dra"]
    if dra:
        yield loc.warning(
            at,
            f"on {', '.join(dra)} the group's pods claim their GPUs through Dynamic Resource "
            "Allocation (a ResourceClaimTemplate), which Kueue's quota does not count: a group "
            "is admitted whole by CPU and memory, not by GPUs (Kueue 0.17.3 counts claimed "
            "devices only behind its alpha DynamicResourceAllocation feature gate, off by "
            "default, with deviceClassMappings in its manager configuration; gpuplat turns on "
            "neither)",
            "use the device plugin on clusters whose multi-host groups Kueue admits",
            at_key=True,
        )


_ONE_POOL = (
    "the autoscaler picks a node pool for each pending pod, and Kueue gives a group's pods "
    "one flavor (one pool) only when it places them by topology, which it does only on nodes "
    "that already stand, not on pools it would have to scale up"
)
"""Why a group cannot be spread over pools or rungs and still land whole on one of them
(Kueue 0.17.3: pkg/scheduler/flavorassigner/flavorassigner.go assigns flavors per podset
group, and a podset group exists only in a topology request)."""


def pools(
    workload: Workload,
    cluster: Cluster,
    matched: Sequence[NodePool],
    paths: dict[str, KeyPath],
    base: KeyPath,
    loc: Locator,
) -> Iterator[Diagnostic]:
    """A group's pods on one pool, one zone, whole nodes, one fabric (``paths``: each pool's
    key path)."""
    multi = workload.multi_host
    if multi is None or not matched:
        return
    where = f'cluster "{cluster.name}"'
    if len(matched) > 1:
        yield loc.error(
            (*base, "accelerator" if workload.accelerator else "pool"),
            f"a multi-host group must run on one pool; in {where} it could take "
            f"{', '.join(p.name for p in matched)}, whose nodes share no fabric or placement, "
            f"and nothing would hold a group to one of them: {_ONE_POOL}",
            "name one pool (pool:) for the group; to fall back to another pool, serve the "
            "model from a second workload on it",
        )
        return
    pool = matched[0]
    at = paths[pool.name]
    cloud = target(cluster.cloud)
    if cloud.ladder(cluster, pool).is_ladder:
        yield loc.error(
            (*at, "capacity"),
            f'pool "{pool.name}" of {where} is a capacity ladder: its rungs are node pools of '
            "their own, and a group split over two has no common fabric or placement; nothing "
            f"would hold a group to one rung: {_ONE_POOL}",
            "give the group's pool one capacity type; to fall back to another capacity type, "
            "serve the model from a second workload on a pool of that type",
            related=[((*base, "multi_host"), "the multi-host workload")],
        )
    zones = pool.zones if pool.zones is not None else cluster.zones
    if len(zones) != 1:
        said = f"zones {', '.join(zones)}" if zones else "the cloud's choice of zones"
        yield loc.error(
            (*at, "zones") if pool.zones is not None else (*base, "multi_host"),
            f'a multi-host group on pool "{pool.name}" of {where} could span {said}: its '
            "tensors would cross zones on every token (and no RDMA fabric crosses a zone)",
            "give the pool exactly one zone (zones: [...])",
            at_key=pool.zones is None,
        )
    units = resolve_pool(cluster, pool).units_per_node
    if pool.sharing.mode == "none" and units and workload.gpus != units:
        yield loc.error(
            (*base, "gpus"),
            f'a multi-host group takes whole nodes: one pod per node of pool "{pool.name}", '
            f"which has {units} GPUs, not {workload.gpus}",
            f"set gpus: {units}",
            related=[((*at, "machine_type"), "the pool's machine type")],
        )
    if pool.sharing.mode != "none":
        yield loc.error(
            (*base, "multi_host"),
            f'pool "{pool.name}" shares its GPUs ({pool.sharing.mode}); a group\'s pods take '
            "whole nodes",
            "use a pool without sharing",
            at_key=True,
        )
    if multi.topology and cloud.group_topology([pool]) is None:
        yield loc.error(
            (*base, "multi_host", "topology"),
            f'pool "{pool.name}" of {where} ({pool.machine_type}) has no network topology '
            f"labels on its nodes for Kueue to place a group by on {cloud.title}",
            _topology_hint(cluster.cloud),
        )
    yield from _standing(workload, cluster, pool, at, base, loc)
    note = cloud.group_fabric_note(pool)
    if note is not None:
        yield loc.warning((*base, "multi_host"), note[0], note[1], at_key=True)


def _standing(
    workload: Workload, cluster: Cluster, pool: NodePool, at: KeyPath, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """``topology: true`` on a pool that would have to scale up for a group: Kueue places by
    topology only on nodes that exist, and its gated pods never ask the autoscaler for more."""
    multi = workload.multi_host
    if multi is None or not multi.topology:
        return
    if target(cluster.cloud).group_topology([pool]) is None:
        return  # refused above: the pool's nodes carry no topology labels
    needed = standing_nodes(cluster, [pool], workload)
    if needed is None:
        return
    yield loc.error(
        (*base, "multi_host", "topology"),
        f'pool "{pool.name}" keeps {pool.autoscaling.min_nodes} nodes up, fewer than the '
        f"{needed} its groups (replicas.max and a rollout's surge group) need: Kueue places a "
        "group by topology only on nodes that exist, and the cluster autoscaler adds none for "
        "pods Kueue still holds back (gpuplat renders no Provisioning admission check)",
        f"set the pool's autoscaling.min_nodes to {needed}, or remove multi_host.topology "
        "(Kueue then admits the group by quota and the autoscaler adds its nodes)",
        related=[((*at, "autoscaling", "min_nodes"), "the pool's standing nodes")],
    )


def _topology_hint(cloud: str) -> str:
    if cloud == "eks":
        return (
            "use an instance type whose EC2 topology EKS labels (p4d, p5, p5e, p5en, p6-b200, "
            "p6-b300, p6e-gb200, g6e, g7e, trn1, trn2), or remove multi_host.topology"
        )
    if cloud == "gke":
        return (
            "use an A3 Ultra or A4 pool with gpudirect: {type: rdma}, or remove multi_host.topology"
        )
    if cloud == "aks":
        return (
            "set infiniband: true on the pool (its nodes then carry gpuplat's InfiniBand network "
            "label), or remove multi_host.topology"
        )
    return "remove multi_host.topology: the cloud's nodes carry no topology labels"


def memory(
    workload: Workload,
    pool: NodePool,
    gpu: PoolGpu,
    replica_gb: float,
    where: str,
    base: KeyPath,
    loc: Locator,
    related: Sequence[tuple[KeyPath, str]],
) -> Iterator[Diagnostic]:
    """Weights plus KV cache against the GPU memory of one replica (``replica_gb`` on one node;
    a group has ``nodes`` times that). Too much for one node, on a pool whose nodes could form
    a group, is refused with the smallest group that holds it."""
    model = workload.model
    size = model.size_gb
    need = size + model.kv_cache_gb
    nodes = workload.group_size
    memory_gb = replica_gb * nodes
    said = f"weights of {size:g} GB" + (
        f" + KV cache of {model.kv_cache_gb:g} GB = {need:g} GB" if model.kv_cache_gb else ""
    )
    per = f"per group of {nodes} nodes" if nodes > 1 else "per replica"
    if need > memory_gb:
        hint, details = _smallest_group(workload, pool, gpu, need)
        yield loc.error(
            (*base, "model", "size_gb"),
            f"{said} do not fit in {memory_gb:g} GB of GPU memory {per} on {where}",
            hint or "use more GPUs per replica, a bigger MIG profile or a bigger GPU",
            details=details,
            related=related,
        )
    elif need > MEMORY_FRACTION * memory_gb:
        yield loc.warning(
            (*base, "model", "size_gb"),
            f"{said} leave under 10% of {memory_gb:g} GB GPU memory {per} on {where}",
            "give each replica more GPU memory",
            related=related,
        )


def _smallest_group(
    workload: Workload, pool: NodePool, gpu: PoolGpu, need: float
) -> tuple[str | None, tuple[str, ...]]:
    """The hint naming the smallest group of whole nodes of ``pool`` that holds ``need`` GB
    within MEMORY_FRACTION of its GPU memory, and the arithmetic; (None, ()) when the pool's
    nodes cannot form groups (shared GPUs, unknown memory)."""
    count, per_gpu = gpu.gpus_per_node, gpu.gpu_memory_gb
    if pool.sharing.mode != "none" or not count or not per_gpu:
        return None, ()
    node_gb = count * per_gpu * MEMORY_FRACTION
    nodes = max(2, math.ceil(need / node_gb))
    gpus = nodes * count
    hint = (
        f"serve it from a group of {nodes} nodes: multi_host: {{nodes: {nodes}}} with gpus: "
        f"{count} (tensor_parallel {count} x pipeline_parallel {nodes})"
    )
    details = (
        f"{need:g} GB over {gpus} GPUs (tensor {count} x pipeline {nodes}) = "
        f"{need / gpus:.1f} GB per GPU, within {MEMORY_FRACTION:g} x {per_gpu:g} GB = "
        f"{MEMORY_FRACTION * per_gpu:g} GB",
        f"{nodes - 1} node(s) hold {(nodes - 1) * node_gb:g} GB at {MEMORY_FRACTION:g} of "
        f"their GPU memory: too little",
    )
    if workload.multi_host is not None and workload.group_size >= nodes:
        return None, ()
    return hint, details
