"""Workloads: references resolve, replicas fit on their pools, weights fit and load in time."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.spec.checks import (
    address,
    diskrate,
    memshare,
    multihost,
    placement,
    pod,
    requests,
    roles,
    signals,
    weights,
)
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import (
    mig_memory_gb,
    resolve_pool,
    workload_pools,
)
from gpuplat.spec.roles import bounds, on
from gpuplat.targets import pool_node_bounds

_ENV_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
_CPU = re.compile(r"^\d+(\.\d+)?m?$")
_MEMORY = re.compile(r"^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?$")


def check(spec: Spec, loc: Locator, broken: set[tuple[str, str]]) -> Iterator[Diagnostic]:
    """Check every workload; pools named in ``broken`` (cluster, pool) are not measured."""
    clusters = {c.name: c for c in spec.clusters}
    for i, workload in enumerate(spec.workloads):
        base: KeyPath = ("workloads", i)
        yield from _references(spec, workload, clusters, base, loc)
        yield from _replicas(workload, base, loc)
        yield from signals.check(workload, clusters, base, loc, spec.addons.metrics.prometheus)
        yield from weights.check(workload, clusters, base, loc)
        yield from _container(workload, base, loc)
        yield from multihost.check(spec, workload, base, loc)
        yield from pod.check(workload, base, loc)
        yield from roles.check(spec, workload, base, loc)
        yield from address.check(workload, base, loc)
        pools = workload_pools(spec, workload)
        for name, matched in pools.items():
            cluster = clusters[name]
            mine = on(workload, name)
            usable = [p for p in matched if (name, p.name) not in broken]
            fits = True
            placed = workload.placements.get(name)
            own = placed is not None and placed.replicas is not None
            found = list(_replicas(mine, base, loc)) if own else []
            paths = {p.name: pool_path(spec, cluster, p) for p in matched}
            found += multihost.pools(mine, cluster, matched, paths, base, loc)
            for pool in usable:
                fitted = list(_fit(spec, mine, cluster, pool, base, loc))
                if not any(d.is_error for d in fitted):
                    fitted += requests.check(spec, mine, cluster, pool, base, loc)
                fits = fits and not any(d.is_error for d in fitted)
                found += fitted
            if usable and len(usable) == len(matched) and fits:
                found += _capacity(spec, workload, cluster, usable, base, loc)
                found += diskrate.check(mine, cluster, usable, base, loc)
            yield from roles.relocate(found, workload, name, base, loc)
    yield from placement.check(spec, loc, broken)


def pool_path(spec: Spec, cluster: Cluster, pool: NodePool) -> KeyPath:
    """Key path of a pool in the spec, for diagnostics that name it as a related value."""
    i = next(k for k, c in enumerate(spec.clusters) if c.name == cluster.name)
    j = next(k for k, p in enumerate(cluster.node_pools) if p.name == pool.name)
    return ("clusters", i, "node_pools", j)


def _references(
    spec: Spec, workload: Workload, clusters: dict[str, Cluster], base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    seen: set[str] = set()
    for c, name in enumerate(workload.clusters):
        if name in seen:
            yield loc.error(
                (*base, "clusters", c),
                f'cluster "{name}" is listed twice',
                "each cluster appears once in the failover order",
            )
        seen.add(name)
        if name not in clusters:
            yield loc.error(
                (*base, "clusters", c),
                f'unknown cluster "{name}"',
                f"clusters in this spec: {', '.join(clusters) or 'none'}",
            )
    if workload.pool is not None and workload.accelerator is not None:
        yield loc.error(
            (*base, "accelerator"),
            "set pool or accelerator, not both",
            "pool names one pool; accelerator picks every pool with that GPU",
            at_key=True,
        )
        return
    for c, name in enumerate(workload.clusters):
        cluster = clusters.get(name)
        if cluster is None:
            continue
        pools = [p.name for p in cluster.node_pools]
        if workload.pool is not None:
            if workload.pool not in pools:
                yield loc.error(
                    (*base, "pool"),
                    f'cluster "{name}" has no node pool "{workload.pool}"',
                    f"pools in {name}: {', '.join(pools) or 'none'}",
                )
        elif workload.accelerator is not None:
            if not any(
                resolve_pool(cluster, p).matches(workload.accelerator) for p in cluster.node_pools
            ):
                have = sorted(
                    {resolve_pool(cluster, p).accelerator or "?" for p in cluster.node_pools}
                )
                yield loc.error(
                    (*base, "accelerator"),
                    f'cluster "{name}" has no pool with {workload.accelerator}',
                    f"its pools have: {', '.join(have) or 'no GPU pools'}",
                )
        elif len(pools) != 1:
            yield loc.error(
                (*base, "clusters", c),
                f'say which pool of cluster "{name}" to run on',
                f"set pool (one of: {', '.join(pools)}) or accelerator",
            )


def _replicas(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    rep = workload.replicas
    if rep.min > rep.max:
        yield loc.error(
            (*base, "replicas", "min"),
            f"replicas.min ({rep.min}) is more than replicas.max ({rep.max})",
        )
    if workload.scale_to_zero:
        if rep.min != 0:
            yield loc.error(
                (*base, "replicas", "min"),
                f"scale_to_zero needs replicas.min: 0, got {rep.min}",
                "set replicas.min: 0, or scale_to_zero: false to keep replicas warm",
            )
    elif rep.min == 0:
        yield loc.error(
            (*base, "replicas", "min"),
            "replicas.min: 0 needs scale_to_zero: true",
            "set scale_to_zero: true, or replicas.min: 1",
        )
    if (
        workload.autoscaling.metric is not None
        and rep.min == rep.max
        and not workload.scale_to_zero
    ):
        yield loc.warning(
            (*base, "autoscaling", "metric"),
            f"replicas.min equals replicas.max ({rep.min}): the metric cannot change anything",
            "raise replicas.max or remove the metric",
        )


def _container(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    image = workload.image
    last = image.rsplit("/", 1)[-1]
    if "@sha256:" not in image and (":" not in last or last.endswith(":latest")):
        yield loc.warning(
            (*base, "image"),
            f'image "{image}" is not pinned',
            "pin a version tag or a digest so every replica runs the same server",
        )
    for key in workload.env:
        if not _ENV_NAME.match(key):
            yield loc.error(
                (*base, "env", key),
                f'"{key}" is not a valid environment variable name',
                at_key=True,
            )
    res = workload.resources
    if res.cpu is not None and not _CPU.match(res.cpu):
        yield loc.error(
            (*base, "resources", "cpu"),
            f'"{res.cpu}" is not a CPU quantity',
            'write "8" or "7500m"',
        )
    if res.memory is not None and not _MEMORY.match(res.memory):
        yield loc.error(
            (*base, "resources", "memory"),
            f'"{res.memory}" is not a memory quantity',
            'write "64Gi"',
        )
    if not workload.health_path.startswith("/"):
        yield loc.error((*base, "health_path"), "health_path must start with /")


def _fit(
    spec: Spec,
    workload: Workload,
    cluster: Cluster,
    pool: NodePool,
    base: KeyPath,
    loc: Locator,
) -> Iterator[Diagnostic]:
    gpu = resolve_pool(cluster, pool)
    at = pool_path(spec, cluster, pool)
    shape = [((*at, "machine_type"), "the pool's machine type")]
    sharing = [((*at, "sharing"), "the pool's GPU sharing")] if pool.sharing.mode != "none" else []
    units = gpu.units_per_node
    where = f'pool "{pool.name}" in cluster "{cluster.name}"'
    if units is None:
        return
    shared = pool.sharing.mode in ("time-slicing", "mps")
    if shared and workload.gpus != 1:
        yield loc.error(
            (*base, "gpus"),
            f"{where} shares GPUs by {pool.sharing.mode}: a replica can take 1 shared GPU, not {workload.gpus}",
            "set gpus: 1, or use a pool without sharing",
            related=sharing,
        )
        return
    if workload.gpus > units:
        noun = "MIG instances" if pool.sharing.mode == "mig" else "GPUs"
        yield loc.error(
            (*base, "gpus"),
            f"a replica needs {workload.gpus} {noun}; a node of {where} has {units}",
            "replicas must fit on one node: lower gpus or use a bigger machine type",
            related=shape + sharing,
        )
        return
    if units % workload.gpus:
        stranded = units % workload.gpus
        yield loc.warning(
            (*base, "gpus"),
            f"{stranded} of {units} GPUs per node of {where} are stranded",
            f"{units} is not a multiple of {workload.gpus}; pick gpus that divide {units}",
            related=shape + sharing,
        )
    yield from memshare.check(workload, pool, at, where, gpu.gpu_memory_gb, base, loc)
    memory = _replica_memory_gb(workload, pool, gpu.gpu_memory_gb)
    if memory is not None:
        related = shape + sharing
        yield from multihost.memory(workload, pool, gpu, memory, where, base, loc, related)


def _replicas_word(count: int) -> str:
    return f"{count} replica{'s' if count != 1 else ''}"


def _replica_memory_gb(
    workload: Workload, pool: NodePool, gpu_memory: float | None
) -> float | None:
    sharing = pool.sharing
    if sharing.mode == "mig" and sharing.profile:
        per = mig_memory_gb(sharing.profile)
        return None if per is None else float(per * workload.gpus)
    if gpu_memory is None:
        return None
    if sharing.mode in ("time-slicing", "mps") and sharing.max_clients:
        # Sharing divides compute, not memory: every client on a GPU needs its own copy.
        return gpu_memory / sharing.max_clients
    return gpu_memory * workload.gpus


def _capacity(
    spec: Spec,
    workload: Workload,
    cluster: Cluster,
    pools: list[NodePool],
    base: KeyPath,
    loc: Locator,
) -> Iterator[Diagnostic]:
    units = [resolve_pool(cluster, p).units_per_node for p in pools]
    if any(u is None for u in units):
        return
    mine = on(workload, cluster.name)
    role = bounds(workload, cluster.name)
    per_node = [(u or 0) // mine.gpus for u in units]
    most = sum(n * pool_node_bounds(cluster, p)[1] for n, p in zip(per_node, pools, strict=True))
    most //= mine.group_size  # a multi-host replica takes group_size nodes
    names = ", ".join(p.name for p in pools)
    maxima = [
        ((*pool_path(spec, cluster, p), "autoscaling", cap), f"{cap} of pool {p.name}")
        for p in pools
        for cap in ("max_gpus" if p.autoscaling.max_gpus is not None else "max_nodes",)
    ]
    group = f" (each a group of {mine.group_size} nodes)" if mine.group_size > 1 else ""
    if role.low > most:
        yield loc.error(
            (*base, "replicas", "min"),
            f'{_replicas_word(role.low)}{group} can never be ready in cluster "{cluster.name}": pools {names} hold at most {most}',
            "raise the pools' max_nodes or lower replicas.min",
            related=maxima,
        )
    elif role.high > most:
        yield loc.warning(
            (*base, "replicas", "max"),
            f'only {most} of {role.high} replicas{group} fit in cluster "{cluster.name}" (pools {names} at max_nodes)',
            "raise the pools' max_nodes or lower replicas.max",
            related=maxima,
        )
    if mine.scale_to_zero:
        for pool in pools:
            if pool.autoscaling.min_nodes > 0:
                yield loc.error(
                    (*base, "scale_to_zero"),
                    f'scale_to_zero needs pools that can reach 0 nodes; pool "{pool.name}" in cluster "{cluster.name}" keeps min_nodes {pool.autoscaling.min_nodes}',
                    "set that pool's autoscaling.min_nodes: 0",
                    related=[
                        (
                            (*pool_path(spec, cluster, pool), "autoscaling", "min_nodes"),
                            f"min_nodes of pool {pool.name}",
                        )
                    ],
                )
