"""CPU and memory of a replica's containers: its share of the node, or what the spec says.

The server gets the replica's share (workload/allocatable.py) less the sidecars GKE adds; the
weights' init container runs before the server and asks for no more than it, so the pod's
effective request is the server's plus its sidecars'. An explicit ``resources.cpu`` or
``memory`` is used as written; validate refuses one larger than the share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.targets import target
from gpuplat.targets.node_reserve import Reserve
from gpuplat.workload.allocatable import FUSE_SIDECAR, ZERO, NodeShare, effective, node_share
from gpuplat.workload.quantity import cpu_millis, cpu_text, memory_mib, memory_text

INIT_CPU_MILLIS = 1000
INIT_MEMORY_MIB = 2048
INIT_MEMORY_LIMIT_MIB = 4096
"""A copier (gcloud, the AWS CLI, curl) streams files: a core and a few GiB are plenty."""
FALLBACK = Reserve(cpu_millis=4000, memory_mib=16384)
"""Requests when the catalog does not know the pool's machine (no share can be computed)."""


@dataclass(frozen=True)
class ReplicaResources:
    """Requests of a replica's server and init containers, and the share they come from."""

    cpu: str
    memory: str
    init_requests: dict[str, str] = field(default_factory=dict)
    init_limits: dict[str, str] = field(default_factory=dict)
    share: Reserve | None = None
    """What one replica may request in all on the smallest node it may land on."""
    shares: tuple[NodeShare, ...] = ()
    sidecar: Reserve = ZERO
    """What the containers GKE injects beside the server request (Cloud Storage FUSE)."""
    written: tuple[str, ...] = ()
    """The requests the spec sets itself (``cpu``, ``memory``)."""

    def explain(self, gpus: int) -> str:
        """Where the requests come from, for people reading the rendered root."""
        if not self.shares:
            return (
                f"the catalog does not know the pools' machines: {self.cpu} and {self.memory}, "
                "gpuplat's fallback"
            )
        smallest = min(self.shares, key=lambda s: (s.replica(gpus).cpu_millis, s.pool))
        text = smallest.explain(gpus)
        if self.sidecar != ZERO:
            text += (
                f", less the Cloud Storage FUSE sidecar ({self.sidecar.cpu_millis}m, "
                f"{self.sidecar.memory_mib}Mi)"
            )
        if self.written:
            text = f"{' and '.join(self.written)} as the spec sets; the share: {text}"
        return f"{text}. {smallest.pods_text()}"


def sidecars(fuse: bool, cache_mib: int = 0) -> Reserve:
    """Requests of the containers GKE injects next to the server (with a file cache in memory,
    the FUSE sidecar requests it too)."""
    if not fuse:
        return ZERO
    return Reserve(FUSE_SIDECAR.cpu_millis, FUSE_SIDECAR.memory_mib + cache_mib)


def init_requests(server: Reserve) -> Reserve:
    """What the weights' init container requests: a copier's needs, never more than the server."""
    return Reserve(min(INIT_CPU_MILLIS, server.cpu_millis), min(INIT_MEMORY_MIB, server.memory_mib))


def pod_requests(cpu: str, memory: str, *, fuse: bool, cache_mib: int = 0) -> Reserve:
    """What the scheduler counts for a replica whose server requests ``cpu`` and ``memory``:
    the server and GKE's FUSE sidecar together, or the init container if it asks for more."""
    server = Reserve(cpu_millis(cpu) or 0, math.ceil(memory_mib(memory) or 0))
    return effective(server, sidecars(fuse, cache_mib), init_requests(server))


def rung_pools(cluster: Cluster, pools: list[NodePool]) -> list[NodePool]:
    """The node pools a workload's pools render as: every rung of their capacity ladders (a
    rung may name its own machine type)."""
    ladders = target(cluster.cloud)
    return [rung.pool for pool in pools for rung in ladders.ladder(cluster, pool).rungs]


def smallest_share(
    spec: Spec, cluster: Cluster, pools: list[NodePool], gpus: int
) -> tuple[Reserve | None, tuple[NodeShare, ...]]:
    """A replica's share of the smallest node among ``pools`` (any rung of their ladders), and
    each node."""
    nodes = rung_pools(cluster, pools)
    shares = tuple(s for p in nodes if (s := node_share(spec, cluster, p)) is not None)
    if not shares:
        return None, ()
    each = [s.replica(gpus) for s in shares]
    return Reserve(min(r.cpu_millis for r in each), min(r.memory_mib for r in each)), shares


def replica_resources(
    spec: Spec,
    cluster: Cluster,
    pools: list[NodePool],
    workload: Workload,
    *,
    fuse: bool,
    cache_mib: int = 0,
) -> ReplicaResources:
    """The replica's requests on ``cluster``, and its init container's."""
    share, shares = smallest_share(spec, cluster, pools, workload.gpus)
    side = sidecars(fuse, cache_mib)
    derived = FALLBACK
    if share is not None:
        derived = Reserve(
            max(share.cpu_millis - side.cpu_millis, 1),
            max(share.memory_mib - side.memory_mib, 1),
        )
    cpu = workload.resources.cpu or cpu_text(derived.cpu_millis)
    memory = workload.resources.memory or memory_text(derived.memory_mib)
    server_cpu = cpu_millis(cpu) or derived.cpu_millis
    server_memory = int(memory_mib(memory) or derived.memory_mib)
    init = init_requests(Reserve(server_cpu, server_memory))
    init_memory = init.memory_mib
    return ReplicaResources(
        cpu=cpu,
        memory=memory,
        init_requests={
            "cpu": cpu_text(init.cpu_millis),
            "memory": memory_text(init_memory),
        },
        init_limits={
            "memory": memory_text(max(init_memory, min(INIT_MEMORY_LIMIT_MIB, server_memory)))
        },
        share=share,
        shares=shares,
        sidecar=side,
        written=tuple(k for k in ("cpu", "memory") if getattr(workload.resources, k) is not None),
    )
