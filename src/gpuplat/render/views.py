"""What the infra and platform root templates read, typed: one frozen view per module call.

A target builds a :class:`ClusterView` (its module calls: the cluster, its node pools, and
whatever else the cloud needs beside them) and hands it to the templates in an
:class:`InfraPart`; the platform stage hands a :class:`PlatformView` per cluster. A misspelt
field or a wrong shape is then mypy's finding, not a template's at render time. The module
arguments themselves stay plain data (``args``): the HCL writer writes them as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Cloud = Literal["gke", "eks", "aks"]


@dataclass(frozen=True)
class CallView:
    """One module call beside a cluster: its label and arguments (an EKS VPC, a managed
    Prometheus)."""

    module: str
    args: dict[str, object]


@dataclass(frozen=True)
class PoolView:
    """One node pool's module call: a pool, or one rung of a pool's capacity ladder."""

    name: str
    module: str
    machine_type: str
    args: dict[str, object]
    accelerator: str | None = None
    """The GPU model, where the template names it in the call's comment (EKS, AKS)."""
    gpus_per_node: int = 0


@dataclass(frozen=True)
class IdentityView:
    """A workload's own cloud identity on a cluster, reading its weights (AKS)."""

    workload: str
    module: str
    container: str
    """Where the weights are: ``account/container``."""
    args: dict[str, object]


@dataclass(frozen=True)
class ClusterView:
    """A cluster's module calls in its infra root (what ``roots/infra/<cloud>.tf.j2`` writes)."""

    cloud: Cloud
    name: str
    module: str
    args: dict[str, object]
    pools: tuple[PoolView, ...]
    region: str = ""
    network: CallView | None = None
    """A new VPC for the cluster (EKS with ``network.vpc_cidr``)."""
    prometheus: CallView | None = None
    """The cloud's managed Prometheus, where the cluster's metrics go there."""
    identities: tuple[IdentityView, ...] = ()
    identity_outputs: Mapping[str, object] = field(default_factory=dict)
    """Workload -> its identity's client id, for the serving stage's service accounts."""


@dataclass(frozen=True)
class InfraPart:
    """A cluster's infra root, as its cloud renders it."""

    cluster: ClusterView
    """What ``roots/infra/<cloud>.tf.j2`` writes."""
    modules: frozenset[str]
    """Module names the part calls."""
    providers: Mapping[str, object]
    """What ``roots/infra/<cloud>.providers.tf.j2`` writes."""


@dataclass(frozen=True)
class PlatformView:
    """A cluster's gpu-platform module call (what ``roots/platform/main.tf.j2`` writes)."""

    name: str
    alias: str
    """The kubernetes and helm providers' alias for the cluster."""
    module: str
    args: dict[str, object]
    installs: tuple[str, ...]
    """The charts the module installs, for the call's comment."""
