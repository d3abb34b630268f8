"""The cluster autoscaler's priority expander, where a cloud's ladders climb through it (EKS
and AKS): every node group of a cluster gets a priority.

The expander matches its patterns against the node groups' names, and a group that no pattern
matches is never scaled up. So the priorities list every node group the cluster renders,
ladder rungs highest first, everything else (the system group and pools of one capacity type)
at the lowest priority. How a group's name becomes a pattern is the cloud's
(``Target.group_pattern``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuplat.spec.ladder import Ladder
from gpuplat.targets.base import SYSTEM_GROUP, LadderPlatform

BASE_PRIORITY = 1
"""Priority of every group that is not a ladder rung: used when it is the only one that fits."""
STEP = 10
"""Priorities of a ladder's rungs are this far apart (room for a person's own in between)."""


def priorities(ladders: Sequence[Ladder]) -> LadderPlatform:
    """Priority expander entries of a cluster's pools, when one is a ladder (else none).

    Args:
        ladders: The ladder of every pool of the cluster, in spec order.

    Returns:
        (priority, node pools) highest first, the system group at :data:`BASE_PRIORITY`.
    """
    if not any(lad.is_ladder for lad in ladders):
        return LadderPlatform()
    levels: dict[int, list[str]] = {BASE_PRIORITY: [SYSTEM_GROUP]}
    for lad in ladders:
        count = len(lad.rungs)
        for rung in lad.rungs:
            level = (count - rung.index) * STEP if lad.is_ladder else BASE_PRIORITY
            levels.setdefault(level, []).append(rung.pool.name)
    ordered = sorted(levels.items(), key=lambda item: -item[0])
    return LadderPlatform(priorities=tuple((p, tuple(names)) for p, names in ordered))
