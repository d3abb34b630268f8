"""What a multi-host group takes from its cloud beside GPUs: the GPU fabric its pods talk over
(targets' group_fabric) and the topology Kueue places it by (group_topology)."""

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


def group_setting(
    spec: Spec, cluster: Cluster, pools: list[NodePool], workload: Workload, server: str | None
) -> GroupSetting:
    """The setting of ``workload``'s group on ``pools``; empty for one pod per replica."""
    if workload.multi_host is None or launcher_of(server) is None:
        return GroupSetting()
    cloud = target(cluster.cloud)
    fabric = cloud.group_fabric(pools)
    wanted = spec.addons.gang_scheduling.kueue and workload.multi_host.topology is not False
    found = cloud.group_topology(pools) if wanted else None
    if found is None:
        return GroupSetting(fabric, annotations=dict(fabric.annotations))
    levels, preferred = found
    annotations = {**fabric.annotations, **topology_annotations(workload.name, preferred)}
    return GroupSetting(fabric, levels, annotations)
