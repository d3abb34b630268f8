"""Cloud targets: everything that differs between GKE, EKS and AKS lives in its target.

Shared code asks ``target(cluster.cloud)`` instead of testing a cloud's name. Adding a cloud is
adding a target package (rules, checks, infra views) and its templates.
"""

from __future__ import annotations

from gpuplat.render.views import InfraPart
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets.aks import AKS
from gpuplat.targets.base import (
    SYSTEM_GROUP,
    KubeAuth,
    LadderPlatform,
    ResolvedPlugin,
    Setting,
    Target,
)
from gpuplat.targets.eks import EKS
from gpuplat.targets.gke import GKE

TARGETS: dict[str, Target] = {t.cloud: t for t in (GKE(), EKS(), AKS())}
"""Every target, by its ``cloud`` name (the spec's ``clusters[].cloud``)."""


def target(cloud: str) -> Target:
    """The target of a cloud named in the spec."""
    return TARGETS[cloud]


def target_of_resource(resource_type: str) -> Target | None:
    """The target whose GPU pools (or clusters) a Terraform resource type is."""
    for one in TARGETS.values():
        if resource_type in (one.pool_resource, one.cluster_resource):
            return one
    return None


def device_plugin(spec: Spec, cluster: Cluster) -> ResolvedPlugin:
    """The device-plugin strategy in effect on a cluster (``auto`` resolved per cloud)."""
    return target(cluster.cloud).device_plugin(spec)


def pool_zone_count(cluster: Cluster, pool: NodePool) -> int:
    """How many zones a pool's nodes are spread over."""
    zones = pool.zones if pool.zones is not None else cluster.zones
    return len(zones) if zones else target(cluster.cloud).default_zone_count(cluster)


def pool_node_bounds(cluster: Cluster, pool: NodePool) -> tuple[int, int]:
    """(fewest, most) nodes of a pool in total, whatever way the bounds are written.

    For a capacity ladder the most is its one cap, across all its rungs (``max_nodes``, or
    what ``max_gpus`` allows), not the sum of the rungs' node pools.
    The fewest is what the cloud creates for ``min_nodes`` (GKE rounds it up to the same number
    in every zone), which its autoscaler does not go below.
    """
    auto = pool.autoscaling
    factor = pool_zone_count(cluster, pool) if auto.per_zone else 1
    cloud = target(cluster.cloud)
    return cloud.min_nodes_created(cluster, pool), cloud.ladder(cluster, pool).cap_nodes * factor


__all__ = [
    "SYSTEM_GROUP",
    "TARGETS",
    "InfraPart",
    "KubeAuth",
    "LadderPlatform",
    "ResolvedPlugin",
    "Setting",
    "Target",
    "device_plugin",
    "pool_node_bounds",
    "pool_zone_count",
    "target",
    "target_of_resource",
]
