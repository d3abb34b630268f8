"""Node pool capacity: capacity type and reservations, autoscaling bounds, zone placement."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.spec.checks.clusters import zone_ok
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool

MAX_RUN_DURATION = 7 * 24 * 3600
_EC2_RESERVATION = re.compile(r"^cr-[0-9a-f]{8,17}$")


def _capacity(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    cap = pool.capacity
    auto = pool.autoscaling
    path = (*base, "capacity")
    cloud = cluster.cloud
    if cap.type != "reservation":
        for key in ("reservation", "reservation_project"):
            if getattr(cap, key) is not None:
                yield loc.error(
                    (*path, key),
                    f"{key} is only used with type: reservation",
                    "set type: reservation or remove it",
                    at_key=True,
                )
    elif cloud == "eks" and cap.reservation is None:
        yield loc.error(
            (*path, "reservation"),
            "an EKS reservation pool needs the capacity reservation or capacity block id",
            'e.g. reservation: "cr-0123456789abcdef0"',
        )
    if cloud == "eks":
        yield from _ec2_capacity(cluster, pool, base, loc)
    elif cap.block:
        yield loc.error((*path, "block"), "block is an EKS setting", "remove it", at_key=True)
    if cap.reservation_project is not None and cloud != "gke":
        yield loc.error(
            (*path, "reservation_project"),
            "reservation_project is a GKE setting",
            "remove it",
            at_key=True,
        )
    if cap.max_run_duration is not None and cap.type != "flex-start":
        yield loc.error(
            (*path, "max_run_duration"),
            "max_run_duration is only used with type: flex-start",
            "remove it, or set type: flex-start",
            at_key=True,
        )
    if cap.type in ("flex-start", "queued"):
        if cloud != "gke":
            alt = (
                "use type: reservation with an EC2 capacity block"
                if cloud == "eks"
                else "use on-demand or spot"
            )
            yield loc.error((*path, "type"), f"{cap.type} is a GKE capacity type", alt)
        if auto.min_nodes != 0:
            yield loc.error(
                (*base, "autoscaling", "min_nodes"),
                f"{cap.type} pools start with no nodes: min_nodes must be 0",
                "nodes are created when pods wait for them",
            )
        if auto.location_policy == "BALANCED":
            yield loc.error(
                (*base, "autoscaling", "location_policy"),
                f"{cap.type} pools need location_policy ANY",
                "remove location_policy (ANY is the default here)",
            )
    if cap.max_run_duration is not None and cap.max_run_duration > MAX_RUN_DURATION:
        yield loc.error(
            (*path, "max_run_duration"),
            "max_run_duration is at most 7d",
            "flex-start nodes run for up to 7 days",
        )
    if auto.min_nodes > auto.max_nodes:
        yield loc.error(
            (*base, "autoscaling", "min_nodes"),
            f"min_nodes ({auto.min_nodes}) is more than max_nodes ({auto.max_nodes})",
            "raise max_nodes or lower min_nodes",
        )
    elif auto.max_nodes == 0:
        yield loc.warning(
            (*base, "autoscaling", "max_nodes"),
            f'pool "{pool.name}" can never have a node (max_nodes: 0)',
            "raise max_nodes, or remove the pool",
        )
    if cloud != "gke":
        for key in ("location_policy", "per_zone"):
            if getattr(auto, key) not in (None, False):
                yield loc.error(
                    (*base, "autoscaling", key),
                    f"{key} is a GKE autoscaling setting",
                    "remove it",
                    at_key=True,
                )


def _ec2_capacity(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """EC2 capacity reservations and Capacity Blocks for ML."""
    cap = pool.capacity
    path = (*base, "capacity")
    if cap.block and cap.type != "reservation":
        yield loc.error(
            (*path, "block"),
            "block: true describes a reservation, but the pool's type is " + cap.type,
            "set type: reservation and the capacity block id under reservation",
        )
    if cap.type != "reservation" or cap.reservation is None:
        return
    if not _EC2_RESERVATION.match(cap.reservation):
        yield loc.error(
            (*path, "reservation"),
            f'"{cap.reservation}" is not an EC2 capacity reservation id',
            "capacity reservations and capacity blocks have ids like cr-0123456789abcdef0",
        )
    zones = pool.zones if pool.zones is not None else cluster.zones
    if len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set"
        yield loc.error(
            (*base, "zones") if pool.zones is not None else (*path, "reservation"),
            f"an EC2 capacity reservation is in one availability zone; pool has {have}",
            "set the pool's zones to the reservation's zone",
        )
    if cap.block and pool.autoscaling.min_nodes > 0:
        yield loc.warning(
            (*base, "autoscaling", "min_nodes"),
            f"capacity block nodes run only while the block is active; min_nodes "
            f"{pool.autoscaling.min_nodes} keeps the node group launching outside it",
            "set min_nodes: 0 and let the autoscaler add nodes while the block is active",
        )


def _placement(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    zones = pool.zones if pool.zones is not None else cluster.zones
    for z, zone in enumerate(pool.zones or ()):
        if not zone_ok(cluster.cloud, cluster.region, zone):
            yield loc.error((*base, "zones", z), f'zone "{zone}" is not in region {cluster.region}')
        elif (
            cluster.cloud == "eks"
            and cluster.network.vpc_cidr is not None
            and cluster.zones
            and zone not in cluster.zones
        ):
            yield loc.error(
                (*base, "zones", z),
                f'zone "{zone}" has no subnet in the new VPC of cluster "{cluster.name}"',
                f"use one of the cluster's zones ({', '.join(cluster.zones)}), or add it there",
            )
    if pool.placement.compact and len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set"
        yield loc.error(
            (*base, "placement", "compact"),
            f"compact placement keeps nodes in one zone; pool has {have}",
            "set the pool's zones to exactly one zone",
        )
    if pool.placement.policy is not None:
        if cluster.cloud != "gke":
            yield loc.error(
                (*base, "placement", "policy"),
                "placement.policy is a GKE setting",
                "remove it",
                at_key=True,
            )
        elif not pool.placement.compact:
            yield loc.error(
                (*base, "placement", "policy"),
                "placement.policy needs compact: true",
                "set placement.compact: true",
            )
