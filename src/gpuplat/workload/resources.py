"""CPU and memory of a replica's containers: its share of the node, or what the spec says.

The server gets the replica's share (workload/allocatable.py) less the sidecars GKE adds; the
weights' init container runs before the server and asks for no more than it, so the pod's
effective request is the server's plus its sidecars'. An explicit ``resources.cpu`` or
``memory`` is used as written; validate refuses one larger than the share.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.targets.node_reserve import Reserve
from gpuplat.workload.allocatable import FUSE_SIDECAR, ZERO, NodeShare, node_share
from gpuplat.workload.quantity import cpu_millis, cpu_text, memory_mib, memory_text

INIT_CPU_MILLIS = 1000
INIT_MEMORY_MIB = 2048
INIT_MEMORY_LIMIT_MIB = 4096
"""A copier (gcloud, s5cmd, curl) streams files: a core and a few GiB are plenty."""
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


def sidecars(fuse: bool) -> Reserve:
    """Requests of the containers GKE injects next to the server."""
    return FUSE_SIDECAR if fuse else ZERO


def smallest_share(
    spec: Spec, cluster: Cluster, pools: list[NodePool], gpus: int
) -> tuple[Reserve | None, tuple[NodeShare, ...]]:
    """A replica's share of the smallest node among ``pools``, and each pool's node."""
    shares = tuple(s for p in pools if (s := node_share(spec, cluster, p)) is not None)
    if not shares:
        return None, ()
    each = [s.replica(gpus) for s in shares]
    return Reserve(min(r.cpu_millis for r in each), min(r.memory_mib for r in each)), shares


def replica_resources(
    spec: Spec, cluster: Cluster, pools: list[NodePool], workload: Workload, *, fuse: bool
) -> ReplicaResources:
    """The replica's requests on ``cluster``, and its init container's."""
    share, shares = smallest_share(spec, cluster, pools, workload.gpus)
    side = sidecars(fuse)
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
    init_memory = min(INIT_MEMORY_MIB, server_memory)
    return ReplicaResources(
        cpu=cpu,
        memory=memory,
        init_requests={
            "cpu": cpu_text(min(INIT_CPU_MILLIS, server_cpu)),
            "memory": memory_text(init_memory),
        },
        init_limits={
            "memory": memory_text(max(init_memory, min(INIT_MEMORY_LIMIT_MIB, server_memory)))
        },
        share=share,
        shares=shares,
    )
