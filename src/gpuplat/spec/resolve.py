"""Facts derived from the spec and the catalog: what GPU a pool has and what a node offers.

Both the semantic checks and the renderer use these, so a pool means the same thing to both.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from gpuplat import catalog
from gpuplat.catalog import GpuModel, Shape
from gpuplat.memo import ByIdentity
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload

_MIG_MEMORY = re.compile(r"^\d+g\.(\d+)gb")


@dataclass(frozen=True)
class PoolGpu:
    """The GPU side of one node pool, as far as it can be known."""

    cloud: str
    shape: Shape | None
    gpu: GpuModel | None
    accelerator: str | None
    """The cloud's own name for the GPU: GKE accelerator type, else the GPU model name."""
    gpus_per_node: int | None
    units_per_gpu: int
    """Schedulable nvidia.com/gpu units per physical GPU (MIG instances or sharing clients)."""

    @property
    def units_per_node(self) -> int | None:
        if self.gpus_per_node is None:
            return None
        return self.gpus_per_node * self.units_per_gpu

    @property
    def gpu_memory_gb(self) -> float | None:
        if self.gpu is None:
            return None
        return float(self.gpu.memory_gb)

    def matches(self, wanted: str) -> bool:
        """True when a workload's ``accelerator`` names this pool's GPU."""
        wanted = wanted.lower()
        names = {self.accelerator or ""}
        if self.gpu is not None:
            names.add(self.gpu.name)
        return wanted in {n.lower() for n in names if n}


_RESOLVED: ByIdentity[PoolGpu] = ByIdentity(1 << 15)
"""resolve_pool by pool (by identity) and cloud: the checks, the capacity arithmetic and the
views ask for every pool several times, and the environments of one load share the pools no
overlay touches."""


def resolve_pool(cluster: Cluster, pool: NodePool) -> PoolGpu:
    """What GPU a pool has, from its machine shape and the catalog (spec values win)."""
    return _RESOLVED.get((pool,), (cluster.cloud,), lambda: _resolve_pool(cluster, pool))


def _resolve_pool(cluster: Cluster, pool: NodePool) -> PoolGpu:
    shape = catalog.shape(cluster.cloud, pool.machine_type)
    gpu: GpuModel | None = None
    accelerator = pool.accelerator
    count = pool.gpus_per_node
    if shape is not None and shape.gpu_model is not None:
        # The shape decides; a contradicting accelerator/gpus_per_node is reported by the checks.
        gpu = catalog.gpu_model(shape.gpu_model)
        # GCE shapes name their bundled accelerator (the GKE node label); others name the GPU.
        accelerator = shape.accelerator or shape.gpu_model
        count = shape.gpu_count or count
    elif accelerator is not None:
        gpu = catalog.gpu_model_for_accelerator(cluster.cloud, accelerator)
    sharing = pool.sharing
    units = 1
    if sharing.mode in ("time-slicing", "mps") and sharing.max_clients:
        units = sharing.max_clients
    elif sharing.mode == "mig" and sharing.profile and gpu is not None:
        units = catalog.mig_profiles(gpu.name).get(sharing.profile, 1)
    return PoolGpu(cluster.cloud, shape, gpu, accelerator, count, units)


def mig_memory_gb(profile: str) -> int | None:
    """Memory of one MIG instance from its profile name (``3g.40gb`` -> 40)."""
    match = _MIG_MEMORY.match(profile)
    return int(match.group(1)) if match else None


_PoolsKey = tuple[tuple[str, ...], str | None, str | None]
_POOLS: dict[int, tuple[weakref.ref[Spec], dict[_PoolsKey, dict[str, list[NodePool]]]]] = {}
"""workload_pools per spec (by id, dropped with the spec): the checks, the capacity arithmetic
and the renders ask it for every workload on every cluster, over and over."""


def workload_pools(spec: Spec, workload: Workload) -> dict[str, list[NodePool]]:
    """For each cluster a workload may run on, the pools it can use (in spec order)."""
    entry = _POOLS.get(id(spec))
    if entry is None or entry[0]() is not spec:
        key_of_spec = id(spec)
        entry = (weakref.ref(spec, lambda _ref: _POOLS.pop(key_of_spec, None)), {})
        _POOLS[key_of_spec] = entry
    # Specs are immutable; a workload's pools depend on these three of its fields only.
    key = (tuple(workload.clusters), workload.pool, workload.accelerator)
    found = entry[1].get(key)
    if found is None:
        found = entry[1][key] = _workload_pools(spec, workload)
    return {name: list(pools) for name, pools in found.items()}


def _workload_pools(spec: Spec, workload: Workload) -> dict[str, list[NodePool]]:
    out: dict[str, list[NodePool]] = {}
    clusters = {c.name: c for c in spec.clusters}
    for name in workload.clusters:
        cluster = clusters.get(name)
        if cluster is None:
            continue
        if workload.pool is not None:
            pools = [p for p in cluster.node_pools if p.name == workload.pool]
        elif workload.accelerator is not None:
            wanted = workload.accelerator
            pools = [p for p in cluster.node_pools if resolve_pool(cluster, p).matches(wanted)]
        else:
            pools = list(cluster.node_pools) if len(cluster.node_pools) == 1 else []
        out[name] = pools
    return out


def version_tuple(version: str) -> tuple[int, int] | None:
    """``"1.34"`` or ``"1.34.1-gke.100"`` -> (1, 34); None when it is not a version."""
    match = re.match(r"^(\d+)\.(\d+)(?:\.\d+)?(?:-[A-Za-z0-9.]+)?$", version)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2))


def startup_seconds(workload: Workload) -> int:
    """Expected seconds from pod start to ready: image pull plus weight load."""
    load = workload.model.size_gb * 1000.0 / workload.model.load_bandwidth_mbps
    return round(workload.image_pull_time + load)
