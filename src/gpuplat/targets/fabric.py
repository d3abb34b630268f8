"""The GPU fabric questions of a target: what a multi-host group's pods add to talk over it."""

from __future__ import annotations

from typing import ClassVar

from gpuplat.spec.model import Cluster, NodePool


class FabricHooks:
    """Defaults: a cloud whose GPU fabric gpuplat does not render (NCCL over the pod network)."""

    title: ClassVar[str]
    fabric_module: ClassVar[str | None] = None
    """The module the serving stage calls once per cluster to configure its fabric's operator
    (AKS: nic-cluster-policy); None where the cloud needs none."""

    def fabric_policy(self, cluster: Cluster, grace_seconds: int) -> dict[str, object] | None:
        """Arguments of the cluster's ``fabric_module`` call; None where it has nothing to
        configure. ``grace_seconds``: the longest termination grace of its servers."""
        return None

    def group_fabric(self, pools: list[NodePool]) -> tuple[dict[str, str], dict[str, str]]:
        """What each pod of a multi-host group adds on these pools to talk over their GPU
        fabric: (resources, requested = limited; environment)."""
        return {}, {}

    def group_capabilities(self, pools: list[NodePool]) -> tuple[str, ...]:
        """Linux capabilities each pod of a multi-host group adds on these pools to use their
        fabric (none by default)."""
        return ()

    def group_fabric_note(self, pool: NodePool) -> tuple[str, str] | None:
        """(message, hint) of a warning when a multi-host group on ``pool`` has no GPU fabric
        gpuplat renders; None when it has one."""
        return (
            f'a multi-host group on pool "{pool.name}" exchanges its tensors over the pod '
            f"network: gpuplat renders no GPU fabric (RDMA, InfiniBand) on {self.title} yet",
            "expect far less throughput between the nodes than over RDMA",
        )
