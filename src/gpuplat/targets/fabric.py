"""The GPU fabric questions of a target: what a multi-host group's pods add to talk over it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from gpuplat.spec.model import Cluster, NodePool


@dataclass(frozen=True)
class HostMount:
    """A node directory a group's container reads (a fabric's plugin and scripts), or writes
    where ``read_only`` is false (devices a fabric maps)."""

    name: str
    host_path: str
    mount_path: str
    read_only: bool = True


@dataclass(frozen=True)
class StartupCheck:
    """A sidecar's startup probe: a command run in it until it succeeds. The kubelet starts
    the pod's next containers (the server) only once a native sidecar's probe has succeeded,
    and restarts the sidecar when the probe fails ``failure_threshold`` times in a row."""

    command: tuple[str, ...]
    initial_delay_seconds: int
    period_seconds: int
    timeout_seconds: int
    failure_threshold: int


@dataclass(frozen=True)
class Sidecar:
    """A container beside the server in every pod of a group (a fabric's daemon), started
    before it and stopped after it (an init container that restarts: a native sidecar)."""

    name: str
    image: str
    command: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    capabilities: tuple[str, ...] = ()
    """Linux capabilities it adds (the others stay as the runtime gives them)."""
    mounts: tuple[HostMount, ...] = ()
    startup: StartupCheck | None = None
    """Without it the server starts as soon as the sidecar's process runs."""


@dataclass(frozen=True)
class GroupFabric:
    """What each pod of a multi-host group adds on its pools to talk over their GPU fabric."""

    resources: dict[str, str] = field(default_factory=dict)
    """Extended resources and hugepages, requested = limited."""
    env: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    """Pod annotations (the interfaces a multi-network pod is given)."""
    mounts: tuple[HostMount, ...] = ()
    prelude: str = ""
    """A shell line the server's launch runs first (a fabric's environment script)."""
    capabilities: tuple[str, ...] = ()
    """Linux capabilities the server container adds to use the fabric (AKS InfiniBand:
    IPC_LOCK); every other one stays dropped."""
    sidecar: Sidecar | None = None
    """A daemon every pod of the group runs beside the server (GKE TCPXO: RxDM)."""


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

    def group_fabric(self, pools: list[NodePool]) -> GroupFabric:
        """What each pod of a multi-host group adds on these pools to talk over their GPU
        fabric."""
        return GroupFabric()

    def group_topology(self, pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
        """(node labels of the cloud's physical topology on these pools, widest first and
        ending with the node's host name; the level a group would rather fit in): what
        Kueue's topology-aware scheduling places a group by. None where the nodes carry no
        such labels."""
        return None

    def platform_fabric(self, cluster: Cluster) -> dict[str, object] | None:
        """What the platform stage installs for the cluster's GPU fabric (the gpu-platform
        module's ``gpudirect``); None when it installs nothing."""
        return None

    def group_fabric_note(self, pool: NodePool) -> tuple[str, str] | None:
        """(message, hint) of a warning when a multi-host group on ``pool`` has no GPU fabric
        gpuplat renders; None when it has one."""
        return (
            f'a multi-host group on pool "{pool.name}" exchanges its tensors over the pod '
            f"network: gpuplat renders no GPU fabric (RDMA, InfiniBand) on {self.title} yet",
            "expect far less throughput between the nodes than over RDMA",
        )
