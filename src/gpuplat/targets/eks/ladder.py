"""EKS capacity ladders: one managed node group per rung, tried in order by the cluster
autoscaler's priority expander (targets/expander.py).

The expander matches its patterns against the node groups' Auto Scaling groups, which AWS
names, not us: the platform stage turns each group into an exact pattern of its real name,
read from the infra stage's state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.hcl.writer import Raw, quote, raw
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.targets.base import SYSTEM_GROUP

KINDS = ("reservation", "capacity-block", "on-demand", "spot")
"""What EKS ladders climb through (flex-start is GKE's)."""
_EC2_RESERVATION = re.compile(r"^cr-[0-9a-f]{8,17}$")


def group_pattern(cluster: str, group: str) -> Raw:
    """An exact pattern of a node group's Auto Scaling group, read from the infra stage's state.

    AWS names a managed node group's Auto Scaling group itself; EKS names hold only letters,
    digits and dashes, so the name needs no escaping inside the pattern.
    """
    clusters = f"local.clusters[{quote(cluster)}]"
    name = (
        f"{clusters}.system_group"
        if group == SYSTEM_GROUP
        else f"{clusters}.pools[{quote(group)}].autoscaling_group"
    )
    return raw(f'format("^%s$", {name})')


def _efa_zones(group: NodePool, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A rung's own zones for an EFA node group: one, as for the pool (targets/eks/nodegroup.py);
    the pool's check sees only the pool's zones, which the rung's replace."""
    shape = catalog.shape("eks", group.machine_type)
    zones = group.zones or []
    if not group.efa or (shape is not None and not shape.efa) or len(zones) == 1:
        return
    yield loc.error(
        path,
        f'EFA node group "{group.name}" must be in one availability zone; it has '
        f"{len(zones)} zones",
        "EFA does not cross zones: give the rung one zone (the pool's, or its reservation's), "
        "or drop the rung's zones to use the pool's",
    )


def check(cluster: Cluster, lad: Ladder, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Reservation and Capacity Block rungs: their ids and their one zone; EFA rungs' zones."""
    for rung in lad.rungs:
        path = (*base, *rung.path)
        mapping = lad.written(rung)
        if mapping is not None and mapping.zones is not None:
            yield from _efa_zones(rung.pool, (*path, "zones"), loc)
        if mapping is not None and mapping.block is not None:
            yield loc.error(
                (*path, "block"),
                "block names a GKE reservation block; an EC2 Capacity Block is a rung of its own",
                "write the Capacity Block as {capacity-block: cr-...}",
                at_key=True,
            )
        if rung.kind not in ("reservation", "capacity-block"):
            continue
        ident = rung.reservation if rung.kind == "reservation" else rung.capacity_block
        key = "reservation" if rung.kind == "reservation" else "capacity-block"
        if ident is None:
            yield loc.error(
                path,
                f"an EKS {rung.kind} rung needs its capacity reservation id",
                f'e.g. {{{key}: "cr-0123456789abcdef0"}}',
            )
            continue
        if not _EC2_RESERVATION.match(ident):
            yield loc.error(
                (*path, key),
                f'"{ident}" is not an EC2 capacity reservation id',
                "capacity reservations and capacity blocks have ids like cr-0123456789abcdef0",
            )
        zones = rung.pool.zones if rung.pool.zones is not None else cluster.zones
        if len(zones) != 1:
            have = f"{len(zones)} zones" if zones else "no zone set"
            yield loc.error(
                path,
                f"an EC2 {rung.kind} is in one availability zone; this rung has {have}",
                "give the rung the reservation's zone: zones: [<zone>]",
            )
        if rung.kind == "capacity-block" and rung.pool.autoscaling.min_nodes > 0:
            yield loc.warning(
                (*base, "autoscaling", "min_nodes"),
                "the first rung is a Capacity Block, whose nodes run only while the block is "
                "active; min_nodes keeps the node group launching outside it",
                "set min_nodes: 0 and let the autoscaler add nodes while the block is active",
            )
