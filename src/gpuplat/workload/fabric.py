"""What a multi-host group takes from its cloud beside GPUs: the GPU fabric its pods talk over
(targets' group_fabric) and the topology Kueue places it by (group_topology).

Kueue's topology-aware scheduling places a group on nodes that exist: it finds no domain in a
flavor without nodes ("no topology domains at level", pkg/cache/scheduler/tas_flavor_snapshot.go
at v0.17.3), and the group's pods wait behind Kueue's scheduling gate, which the cluster
autoscaler does not scale up for. Kueue documents only one way for the two to meet, the
Provisioning AdmissionCheck (site/content/en/docs/concepts/topology_aware_scheduling.md,
"ClusterAutoscaler support"), which gpuplat does not render. So a group is placed by topology
only on a pool whose standing nodes (``min_nodes``) hold every group its queue admits, or all
the nodes the pool can ever have; elsewhere Kueue admits it by quota alone, whose admitted pods
the autoscaler does see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.targets import target
from gpuplat.targets.fabric import GroupFabric
from gpuplat.workload.group import launcher_of
from gpuplat.workload.queue import topology_annotations


@dataclass(frozen=True)
class GroupSetting:
    """A group's fabric, and the topology levels (widest first) and pod annotations of its
    topology-aware admission (none without Kueue or where the cloud has no topology labels)."""

    fabric: GroupFabric = field(default_factory=GroupFabric)
    topology: tuple[str, ...] = ()
    annotations: dict[str, str] = field(default_factory=dict)


def standing_nodes(cluster: Cluster, pools: list[NodePool], workload: Workload) -> int | None:
    """The ``min_nodes`` a group's pools need before Kueue may place it by topology, or None
    when they have them: the nodes of ``replicas.max`` groups and a rollout's surge group,
    capped at what the pools can ever hold (min_nodes = max_nodes: every node is there)."""
    if workload.multi_host is None:
        return None
    size = workload.group_size
    cloud = target(cluster.cloud)
    most = sum(cloud.ladder(cluster, p).cap_nodes for p in pools)
    needed = min((workload.replicas.max + 1) * size, most)
    have = sum(p.autoscaling.min_nodes for p in pools)
    return needed if have < needed else None


def group_setting(
    spec: Spec, cluster: Cluster, pools: list[NodePool], workload: Workload, server: str | None
) -> GroupSetting:
    """The setting of ``workload``'s group on ``pools``; empty for one pod per replica."""
    if workload.multi_host is None or launcher_of(server) is None:
        return GroupSetting()
    cloud = target(cluster.cloud)
    fabric = cloud.group_fabric(pools)
    wanted = spec.addons.gang_scheduling.kueue and workload.multi_host.topology is not False
    standing = standing_nodes(cluster, pools, workload) is None
    found = cloud.group_topology(pools) if wanted and standing else None
    if found is None:
        return GroupSetting(fabric, annotations=dict(fabric.annotations))
    levels, preferred = found
    annotations = {**fabric.annotations, **topology_annotations(workload.name, preferred)}
    return GroupSetting(fabric, levels, annotations)
