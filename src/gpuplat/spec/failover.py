"""Moving a workload's serving role to another cluster, in the order that never leaves it down.

The safe order has two phases, each applied to one cluster's serving root only:

1. the target becomes ``active`` (the source still serves) and is applied; its apply returns
   once the new pods are ready;
2. only then each source becomes ``cold`` (or ``warm``) and is applied.

A Deployment leaves its replica count to the autoscaler once it exists (``ignore_changes`` on
``replicas``) and an HPA never scales up from 0, so a phase whose count must change, with no
autoscaler to change it, replaces the Deployment (``Move.replace``): the new one starts at the
role's count. KEDA moves a ``scale_to_zero`` workload's count itself, both ways.

A multi-host workload moves by whole groups: its GPUs always running are groups x nodes x
GPUs, the LeaderWorkerSet's count changes in place (no replacement), and the target must have
its own GPU fabric on the group's pool (the fabrics need not be of one kind: each cluster's
pods use their own). The set's apply waits until every group is ready (model-server 3.4.0),
as a Deployment's waits for its rollout; an autoscaled set's count is KEDA's, so the failover
holds it at the sources' groups and waits for those (app/hold.py, model-server 3.5.0), and the
plan says what to wait for by hand before phase 2.

Before any of it the target is checked with the same checks as ``gpuplat place``: capacity at
the active replica count, GPU count and memory, sharing, and where the weights are read from.
app/move.py carries the phases out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gpuplat.errors import GpuplatError
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Role, Workload, WorkloadPlacement
from gpuplat.spec.portability import portability
from gpuplat.spec.roles import bounds, on, role_of
from gpuplat.targets import target as cloud_of


@dataclass(frozen=True)
class Move:
    """One cluster's role change and what it does to the GPUs that always run there."""

    cluster: str
    before: Role
    after: Role
    replicas: tuple[int, int]
    """(always running, at most) after the change."""
    gpus_before: int
    gpus_after: int
    replace: bool = False
    """The Deployment's replica count must change and nothing else changes it: terraform leaves
    an existing Deployment's count to the autoscaler, and an HPA never scales up from 0 nor
    exists on a cold standby. The failover replaces the Deployment, which starts at ``low``."""
    groups: int = 0
    """Nodes a replica takes when it is a multi-host group (0: one pod, a Deployment)."""
    autoscaled: bool = False
    """An autoscaler owns the count here (KEDA): a group's plain apply does not wait for it;
    the failover holds it (app/hold.py)."""


class Door(NamedTuple):
    """A workload's front door as a move sees it."""

    name: str
    ttl: int
    """Seconds resolvers keep an old answer after a weight changes."""
    dns: str
    """route53 (weighted records) or traffic_manager (endpoints enabled or disabled)."""


@dataclass(frozen=True)
class Failover:
    """The failover of one workload: refused with reasons, or its two phases in order."""

    workload: str
    namespace: str
    target: str
    reasons: tuple[str, ...]
    """Why the target cannot hold the workload (empty: it can)."""
    up: Move | None = None
    downs: tuple[Move, ...] = ()
    door: Door | None = None
    """The front door, when the workload has one; its weights move."""

    @property
    def scale_by_hand(self) -> bool:
        """The target's count is set by replacing its Deployment (by hand: kubectl scale)."""
        return self.up is not None and self.up.replace

    @property
    def refused(self) -> bool:
        return bool(self.reasons)


def plan_failover(env: EnvSpec, name: str, to: str, *, source_role: Role = "cold") -> Failover:
    """The failover of workload ``name`` to cluster ``to`` in ``env``.

    Raises:
        GpuplatError: No such workload, or ``to`` is not one of its clusters.
    """
    workload = next((w for w in env.spec.workloads if w.name == name), None)
    if workload is None:
        known = ", ".join(w.name for w in env.spec.workloads)
        raise GpuplatError(f'no workload "{name}" in {env.name}', f"workloads: {known}")
    if to not in workload.clusters:
        raise GpuplatError(
            f'cluster "{to}" is not one of the clusters of workload "{name}"',
            f"add it to clusters ({', '.join(workload.clusters)}) and apply it first",
        )
    fit = next(f for f in portability(env) if f.workload == name)
    target = next(c for c in fit.clusters if c.cluster == to)
    if not target.fits:
        return Failover(name, name, to, tuple(target.why_not()))
    fabric = fabric_reason(env, workload, to)
    if fabric is not None:
        return Failover(name, name, to, (fabric,))
    sources = [c for c in workload.clusters if c != to and role_of(workload, c) == "active"]
    if role_of(workload, to) == "active":
        return Failover(name, name, to, (f'"{to}" already serves workload "{name}"',))
    moved = _with_role(workload, to, "active")
    up = _move(workload, moved, to)
    downs = []
    for source in sources:
        after = _with_role(moved, source, source_role)
        downs.append(_move(moved, after, source))
        moved = after
    door = workload.front_door
    named = Door(door.name, door.ttl, door.dns) if door is not None else None
    return Failover(name, name, to, (), up, tuple(downs), named)


def fabric_reason(env: EnvSpec, workload: Workload, to: str) -> str | None:
    """Why the target cannot hold a multi-host group: its pool has no GPU fabric gpuplat
    renders (the group's tensors would cross the pod network); None when it has one, or the
    workload is one pod per replica."""
    if workload.multi_host is None:
        return None
    cluster = next((c for c in env.spec.clusters if c.name == to), None)
    pool_name = on(workload, to).pool
    if cluster is None or pool_name is None:
        return None
    pool = next((p for p in cluster.node_pools if p.name == pool_name), None)
    if pool is None:
        return None
    note = cloud_of(cluster.cloud).group_fabric_note(pool)
    if note is None:
        return None
    return f'"{to}" has no GPU fabric for the group on pool "{pool.name}": {note[0]}'


def _with_role(workload: Workload, cluster: str, role: Role) -> Workload:
    placed = (workload.placements.get(cluster) or WorkloadPlacement()).model_copy(
        update={"role": role}
    )
    return workload.model_copy(update={"placements": {**workload.placements, cluster: placed}})


def _move(before: Workload, after: Workload, cluster: str) -> Move:
    old, new = bounds(before, cluster), bounds(after, cluster)
    mine = on(after, cluster)
    gpus = mine.gpus * mine.group_size
    # KEDA moves the count both ways, from and to 0; an HPA only between counts above 0.
    moved_by_autoscaler = mine.scale_to_zero or (
        mine.autoscaling.metric is not None and old.low > 0 and new.low > 0
    )
    # A LeaderWorkerSet's count of groups changes in place (or KEDA moves it): no replacement.
    replace = old.low != new.low and not moved_by_autoscaler and mine.multi_host is None
    groups = mine.group_size if mine.multi_host is not None else 0
    return Move(
        cluster,
        old.role,
        new.role,
        (new.low, new.high),
        old.low * gpus,
        new.low * gpus,
        replace,
        groups,
        mine.scale_to_zero or mine.autoscaling.metric is not None,
    )
