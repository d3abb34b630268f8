"""Whether a replica's requests fit its node and leave the node its margin.

A node of a pool holds as many replicas as it has GPU units for them (``units // gpus``). Their
requests together must fit what the node offers pods after its kubelet reservation and its
DaemonSets, and should leave the margin unclaimed (workload/allocatable.py). The share gpuplat
computes does both by construction; a request written in the spec, or one changed by hand in a
rendered plan, may not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpuplat.targets.node_reserve import Reserve
from gpuplat.workload.allocatable import NodeShare

Resource = Literal["cpu", "memory"]
UNITS: dict[Resource, str] = {"cpu": "m", "memory": "Mi"}


@dataclass(frozen=True)
class Overrun:
    """A replica request that takes what a node's margin keeps, or more than the node has."""

    node: NodeShare
    resource: Resource
    requested: int
    """One replica's pod, as the scheduler counts it (m or Mi)."""
    per_node: int
    """Replicas a node holds by its GPU units."""
    free: int
    """What the node offers pods after its kubelet reservation and DaemonSets."""
    margin: int
    """What the node keeps unclaimed."""

    @property
    def left(self) -> int:
        """What the replicas leave of the node (negative: they do not fit)."""
        return self.free - self.per_node * self.requested

    @property
    def fits(self) -> bool:
        """The replicas fit the node, though they eat into its margin."""
        return self.left >= 0

    @property
    def largest(self) -> int:
        """The largest pod request that leaves the node its margin."""
        return (self.free - self.margin) // self.per_node

    @property
    def unit(self) -> str:
        return UNITS[self.resource]


def overruns(node: NodeShare, pod: Reserve, gpus: int) -> tuple[Overrun, ...]:
    """The resources of which the replicas a node holds (``units // gpus`` of ``pod``, each
    taking ``gpus`` GPU units) leave the node less than its margin, in cpu, memory order."""
    per_node = max(node.units // gpus, 1)
    free, margin = node.free, node.reserved_margin
    found = (
        Overrun(node, "cpu", pod.cpu_millis, per_node, free.cpu_millis, margin.cpu_millis),
        Overrun(node, "memory", pod.memory_mib, per_node, free.memory_mib, margin.memory_mib),
    )
    return tuple(item for item in found if item.left < item.margin)
