"""The capacity-ladder questions of a target: what its rungs' nodes carry, how its autoscaler
names a node group, and what a workload on a ladder selects, tolerates and is placed by."""

from __future__ import annotations

from gpuplat.hcl.writer import Raw
from gpuplat.spec.ladder import Ladder
from gpuplat.spec.model import Cluster


class LadderHooks:
    """Defaults: a cloud whose ladders need nothing of the nodes or the pods (the pools' own
    label places them)."""

    def rung_taints(self, ladder: Ladder) -> tuple[dict[str, str], ...]:
        """Taints the cloud's ladder needs on every rung's nodes (beyond the pool's own)."""
        return ()

    def group_pattern(self, cluster: Cluster, group: str) -> Raw | str:
        """The priority expander's pattern of exactly one node group of the cluster: a rendered
        node pool of :attr:`~gpuplat.targets.base.LadderPlatform.priorities`, or :data:`~gpuplat.targets.base.SYSTEM_GROUP`.

        A literal regular expression, or an expression the platform root evaluates (a name
        read from the infra stage's state). Only clouds whose ``ladder_platform`` returns
        priorities are asked.
        """
        raise NotImplementedError

    def ladder_selector(self, ladder: Ladder) -> tuple[dict[str, str], tuple[dict[str, str], ...]]:
        """Node selector and tolerations a workload on a ladder needs (none by default)."""
        return {}, ()

    def ladder_placement(self, ladder: Ladder) -> tuple[str, str] | None:
        """The node label and value its pods are placed by, when the ladder's nodes may lack
        the pool's own label (nodes the cloud creates itself); None: the pool's label."""
        return None
