"""What runs on every GPU node, and the margin left unclaimed there: ``data/daemonsets.yaml``.

Each record is one DaemonSet (the cloud's own, or one of the add-ons gpuplat installs) with its
containers' requests as its manifest or chart publishes them, the node features that make it run
(``runs_when``, ``unless``), how its figure was obtained (``basis``) and its sources. Which
features a pool's nodes have is decided by the targets and the add-on plan, not here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Set
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from gpuplat.catalog.files import CatalogDataError, known_cloud, parse
from gpuplat.catalog.model import AsOf, Checked, Cloud, Flag, Num, Record, Sources, Text
from gpuplat.workload.quantity import cpu_millis, memory_mib

Feature = Literal[
    # GKE: what gpuplat's gke-cluster and gke-gpu-node-pool modules turn on (targets/gke/node.py)
    "gke_device_plugin",
    "gke_driver_installer",
    "gke_dataplane_v2",
    "gke_workload_identity",
    "gke_logging",
    "gke_system_metrics",
    "gke_managed_prometheus",
    "gke_managed_dcgm",
    "gcs_fuse_csi",
    "gce_pd_csi",
    # EKS (targets/eks/node.py)
    "vpc_cni",
    "eks_kube_proxy",
    "eks_pod_identity",
    "ebs_csi",
    # AKS (targets/aks/node.py)
    "azure_cni_overlay",
    "aks_cilium_dataplane",
    "azure_disk_csi",
    "azure_blob_csi",
    "azure_file_csi",
    # gpuplat's add-ons (workload/daemonsets.py)
    "nvidia_device_plugin_chart",
    "nvidia_device_plugin",
    "gpu_operator",
    "nvidia_dra_driver",
    "dcgm_exporter_chart",
    "efa_device_plugin",
    "network_operator",
    "infiniband",
]
"""Something a node may have on that brings DaemonSets with it; a typo in the data is an error."""

Basis = Literal["manifest", "chart", "observed", "derived", "estimate"]
"""Where a figure comes from: a published manifest, a chart's defaults, a published node's
`kubectl describe`, arithmetic on observed totals, or an estimate (no published figure)."""

CpuText = Annotated[str, StringConstraints(pattern=r"^\d+(\.\d+)?m?$")]
MemoryText = Annotated[str, StringConstraints(pattern=r"^\d+(\.\d+)?(Ki|Mi|Gi|k|M|G)?$")]


def _millis(text: str) -> int:
    found = cpu_millis(text)
    assert found is not None, text  # the pattern above admits only CPU quantities
    return found


def _mib(text: str) -> int:
    found = memory_mib(text)
    assert found is not None, text
    return math.ceil(found)


class ContainerRequests(Record):
    """One container of a DaemonSet's pod and what it requests (nothing when not set)."""

    name: Text
    cpu: CpuText = "0"
    memory: MemoryText = "0"
    init: Flag = False


class NodeDaemonSet(Checked):
    """A DaemonSet on GPU nodes, its pod's requests and when it runs."""

    name: Text
    namespace: Text
    clouds: tuple[Cloud, ...] = Field(min_length=1)
    owner: Literal["cloud", "gpuplat"]
    containers: tuple[ContainerRequests, ...] = Field(min_length=1)
    basis: Basis
    source: Sources = Field(min_length=1)
    as_of: AsOf
    runs_when: tuple[Feature, ...] = ()
    """Every one of these must be on (none listed: every node of its clouds)."""
    unless: tuple[Feature, ...] = ()
    """None of these may be on."""
    file: Text | None = None
    """Path of the manifest or values file in the source repository."""
    note: Text | None = None

    @model_validator(mode="after")
    def _unpublished_is_unverified(self) -> NodeDaemonSet:
        if self.basis in ("observed", "derived", "estimate") and not self.unverified:
            raise ValueError(f"a figure with basis {self.basis} must be marked unverified")
        if self.basis == "estimate" and not self.note:
            raise ValueError("an estimate needs a note saying what it is counted as and why")
        if set(self.runs_when) & set(self.unless):
            raise ValueError("a feature is both in runs_when and in unless")
        return self

    def runs(self, features: Set[str]) -> bool:
        """Whether the DaemonSet has a pod on a node with these features on."""
        return all(f in features for f in self.runs_when) and not any(
            f in features for f in self.unless
        )

    @property
    def cpu_millis(self) -> int:
        """What the scheduler counts: the larger of the largest init container and the rest."""
        init = [_millis(c.cpu) for c in self.containers if c.init]
        return max([*init, sum(_millis(c.cpu) for c in self.containers if not c.init)])

    @property
    def memory_mib(self) -> int:
        """As :attr:`cpu_millis`, in MiB rounded up."""
        init = [_mib(c.memory) for c in self.containers if c.init]
        return max([*init, sum(_mib(c.memory) for c in self.containers if not c.init)])


class NodeMargin(Record):
    """What a replica's share leaves unclaimed on every node: a fixed part and a percentage."""

    cpu: CpuText
    memory: MemoryText
    percent: Annotated[Num, Field(ge=0, le=10)]
    reason: Text
    source: Sources = ()
    as_of: AsOf

    def cpu_millis(self, allocatable: int) -> int:
        """The margin on a node with ``allocatable`` millicores (the fraction rounded up)."""
        return _millis(self.cpu) + math.ceil(allocatable * self.percent / 100)

    def memory_mib(self, allocatable: int) -> int:
        """The margin on a node with ``allocatable`` MiB (the fraction rounded up)."""
        return _mib(self.memory) + math.ceil(allocatable * self.percent / 100)


class DaemonSetsFile(Record):
    margin: NodeMargin
    daemonsets: list[NodeDaemonSet]


@functools.cache
def daemonsets_file() -> DaemonSetsFile:
    """``daemonsets.yaml`` validated; a DaemonSet named twice for one cloud is a data error.

    Raises:
        CatalogDataError: The file does not match the model, or names a DaemonSet twice.
    """
    found = parse("daemonsets", DaemonSetsFile)
    seen: set[tuple[str, str]] = set()
    for entry in found.daemonsets:
        for cloud in entry.clouds:
            if (cloud, entry.name) in seen:
                raise CatalogDataError(f"daemonsets.yaml: {entry.name} twice for {cloud}")
            seen.add((cloud, entry.name))
    return found


@functools.cache
def _by_cloud() -> MappingProxyType[str, tuple[NodeDaemonSet, ...]]:
    entries = daemonsets_file().daemonsets
    return MappingProxyType(
        {cloud: tuple(e for e in entries if cloud in e.clouds) for cloud in ("gke", "eks", "aks")}
    )


def node_daemonsets(cloud: Cloud) -> tuple[NodeDaemonSet, ...]:
    """Return every DaemonSet the catalog knows on a cloud's GPU nodes, in file order.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        The cloud's own DaemonSets and gpuplat's add-ons that can run there.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
    """
    return _by_cloud()[known_cloud(cloud)]


def node_margin() -> NodeMargin:
    """Return the margin a replica's share leaves on every node.

    Returns:
        The margin, with its reason.
    """
    return daemonsets_file().margin
