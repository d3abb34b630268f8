"""What a cloud target is: the questions shared code asks instead of testing a cloud's name.

A target answers for one cloud: the rules its names, regions and zones follow, the settings and
capacity types it has, the checks only it needs, the add-ons it ships or needs, how the
platform and serving stages reach its clusters, and how its plans count GPUs. Shared code (the
core checks, the add-on plan, the roots, the plan summary) asks ``target(cluster.cloud)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from gpuplat import catalog
from gpuplat.catalog import GpuModel, Shape
from gpuplat.labels import DEVICE_PLUGIN_CONFIG_LABEL, MIG_CONFIG_LABEL, POOL_LABEL, SHARED_MODES
from gpuplat.render.views import InfraPart
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import RUNG_LABEL, Ladder, LadderRung, dashed
from gpuplat.spec.ladder import ladder as build_ladder
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Taint
from gpuplat.targets.addressing import AddressHooks
from gpuplat.targets.billing import BillingHooks
from gpuplat.targets.fabric import FabricHooks
from gpuplat.targets.ladderhooks import LadderHooks
from gpuplat.targets.node_reserve import EphemeralDisk, Reserve
from gpuplat.targets.planvalues import PlanHooks, PlannedPool
from gpuplat.targets.scaling import ScalingHooks
from gpuplat.targets.support import CalendarHooks

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec
    from gpuplat.spec.resolve import PoolGpu

ResolvedPlugin = Literal["managed", "nvidia-device-plugin", "gpu-operator", "dra"]
"""The device-plugin strategy in effect on a cluster, ``auto`` resolved by its target."""


@dataclass(frozen=True)
class NameRule:
    """What a cloud accepts as the name of a kind of object."""

    pattern: re.Pattern[str]
    limit: int
    allowed: str


@dataclass(frozen=True)
class Setting:
    """A spec key, relative to a cluster, that only some clouds read (``*``: any list item)."""

    path: tuple[str, ...]
    hint: str = "remove it"

    @property
    def label(self) -> str:
        return ".".join(p for p in self.path if p != "*").removeprefix("node_pools.")


@dataclass(frozen=True)
class KubeAuth:
    """How the kubernetes and helm providers of a cluster authenticate.

    Either a short-lived ``token`` expression (e.g. from the cloud's provider) or an ``exec``
    plugin; never a credential stored in state.
    """

    token: str | None = None
    exec_command: str | None = None
    exec_args: tuple[str, ...] = ()
    api_version: str = "client.authentication.k8s.io/v1beta1"

    def view(self) -> dict[str, object]:
        exec_: dict[str, object] | None = None
        if self.exec_command is not None:
            exec_ = {
                "api_version": self.api_version,
                "command": self.exec_command,
                "args": list(self.exec_args),
            }
        return {"token": self.token, "exec": exec_}


@dataclass(frozen=True)
class LadderPlatform:
    """What a cluster's platform stage renders so scale-up climbs its pools' ladders in order."""

    manifests: tuple[dict[str, object], ...] = ()
    """Kubernetes objects the cloud reads (GKE: one ComputeClass per ladder)."""
    priorities: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Cluster-autoscaler priority expander: (priority, node groups), highest first. A group is
    named by its rendered node pool, or :data:`SYSTEM_GROUP` for the cluster's system group."""


SYSTEM_GROUP = "<system>"
"""How :attr:`LadderPlatform.priorities` names a cluster's system node group."""


class Target(
    CalendarHooks, ScalingHooks, PlanHooks, FabricHooks, BillingHooks, AddressHooks, LadderHooks
):
    """One cloud. Subclasses set the class attributes and override the hooks they need (the
    support calendar, the bill's other lines, autoscaling, plans and fabrics live in mixins)."""

    cloud: ClassVar[catalog.Cloud]
    title: ClassVar[str]
    account: ClassVar[str]
    """The cluster's account block in the spec (gcp, aws, azure)."""
    account_needed: ClassVar[bool] = False
    account_example: ClassVar[str] = ""
    example_region: ClassVar[str]
    region_pattern: ClassVar[re.Pattern[str]]
    cluster_names: ClassVar[NameRule]
    pool_names: ClassVar[NameRule]
    shape_kind: ClassVar[catalog.Kind]
    shape_word: ClassVar[str]
    accelerator_kind: ClassVar[catalog.Kind] = "gpu_model"
    accelerator_word: ClassVar[str] = "GPU model"
    images: ClassVar[tuple[str, ...]]
    disk_types: ClassVar[tuple[str, ...]]
    capacity_types: ClassVar[frozenset[str]]
    capacity_alternative: ClassVar[str] = "use on-demand or spot"
    settings: ClassVar[tuple[Setting, ...]] = ()
    """Spec keys only this cloud reads: one table, checked for every cluster of another cloud."""
    default_device_plugin: ClassVar[ResolvedPlugin] = "managed"
    managed_device_plugin: ClassVar[bool] = True
    managed_dcgm: ClassVar[bool] = False
    """The cloud collects DCGM metrics itself; gpuplat installs no exporter."""
    operator_mig_strategy: ClassVar[Literal["single"] | None] = "single"
    """MIG strategy of the GPU Operator; None when the cloud partitions the GPUs itself."""
    operator_host_paths: ClassVar[bool] = False
    """The node image keeps driver and toolkit outside the standard paths (GKE COS)."""
    cluster_autoscaler: ClassVar[bool] = False
    """gpuplat installs the Kubernetes cluster autoscaler (the cloud does not scale pools)."""
    weight_mounts: ClassVar[frozenset[str]] = frozenset({"copy", "image"})
    local_ssd_ephemeral: ClassVar[bool] = False
    """Pools can hold ephemeral storage on local SSDs (GKE ``disk.local_ssd_count``)."""
    local_volume_annotation: ClassVar[bool] = False
    """The cloud's node autoscaler is the Kubernetes cluster autoscaler, which keeps a node whose
    pods hold a disk-backed emptyDir unless the pod names it in
    ``cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes`` (CA 1.27+, FAQ "What types
    of pods can prevent CA from removing a node?"). GKE's autoscaler stopped counting local
    storage as a blocker in 1.22, so it needs nothing."""
    blob_workload_identity: ClassVar[bool] = False
    """Pods read Azure Blob weights as a workload identity the infra stage creates (AKS)."""
    infra_provider: ClassVar[str]
    """The Terraform provider of the infra stage."""
    providers: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """Providers this cloud's roots may need: name -> (source, version constraint)."""
    kube_providers: ClassVar[tuple[str, ...]] = ()
    """Providers the platform and serving stages need, besides kubernetes and helm."""
    cluster_resource: ClassVar[str]
    pool_resource: ClassVar[str]

    @property
    def default_system_machine(self) -> str:
        """The CPU shape of the system pool when the spec names none (the catalog's default)."""
        shape = catalog.system_shape(self.cloud)
        assert shape is not None, f"the catalog has no default system shape for {self.cloud}"
        return shape.name

    # --------------------------------------------------------------- names and places

    def zone_ok(self, region: str, zone: str) -> bool:
        """Whether ``zone`` belongs to ``region``."""
        raise NotImplementedError

    def zone_hint(self, region: str) -> str:
        raise NotImplementedError

    interruption_notices: ClassVar[Mapping[str, tuple[int, str]]] = {}
    """Capacity kind -> (seconds of notice the cloud gives before it takes a node back, where
    that is documented). What a pod's terminationGracePeriodSeconds can really hold there."""

    def default_zone_count(self, cluster: Cluster) -> int:
        """Zones a pool spreads over when neither it nor its cluster lists any."""
        return 1

    def gpu_for_accelerator(self, name: str) -> GpuModel | None:
        """The GPU model a pool's ``accelerator`` names, when no known shape decides."""
        return catalog.gpu_model_for_accelerator(self.cloud, name)

    def shape(self, machine_type: str) -> Shape | None:
        return catalog.shape(self.cloud, machine_type)

    def device_plugin(self, spec: Spec) -> ResolvedPlugin:
        """The device-plugin strategy in effect (``auto`` resolved for this cloud)."""
        chosen = spec.addons.device_plugin
        return self.default_device_plugin if chosen == "auto" else chosen

    # --------------------------------------------------------------- checks

    def check_cluster(
        self, spec: Spec, cluster: Cluster, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        """Checks only this cloud needs on a cluster (accounts, network, versions)."""
        return iter(())

    def check_shape(
        self, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic] | None:
        """A cloud's own shape check for pools the catalog cannot describe alone, else None."""
        return None

    def check_pool(
        self,
        spec: Spec,
        cluster: Cluster,
        pool: NodePool,
        gpu: PoolGpu,
        base: KeyPath,
        loc: Locator,
    ) -> Iterator[Diagnostic]:
        """Checks only this cloud needs on a node pool (capacity, images, drivers, sharing)."""
        return iter(())

    # --------------------------------------------------------------- nodes and add-ons

    def pool_labels(self, spec: Spec, pool: NodePool) -> dict[str, str]:
        """Node labels a pool needs for gpuplat's placement and for its add-ons."""
        plugin = self.device_plugin(spec)
        labels = dict(pool.labels)
        labels[POOL_LABEL] = pool.name
        labels.update(self.cloud_pool_labels(pool, plugin))
        shared = pool.sharing.mode in SHARED_MODES and not self.own_device_plugin(pool)
        if plugin in ("nvidia-device-plugin", "gpu-operator") and shared:
            labels[DEVICE_PLUGIN_CONFIG_LABEL] = pool.name
        mig = pool.sharing.mode == "mig" and pool.sharing.profile
        if mig and self.operator_mig_strategy is not None:
            labels[MIG_CONFIG_LABEL] = f"all-{pool.sharing.profile}"
        return dict(sorted(labels.items()))

    def cloud_pool_labels(self, pool: NodePool, plugin: ResolvedPlugin) -> dict[str, str]:
        """Labels this cloud needs on a pool's nodes for the chosen device plugin."""
        return {}

    def disk_write_mibps(self, pool: NodePool) -> float | None:
        """MiB/s the pool's boot disk writes as gpuplat renders it (copied weights land there),
        or None where gpuplat does not know it."""
        return None

    def replica_devices(self, pools: list[NodePool], gpus: int) -> dict[str, str]:
        """Extended resources besides GPUs a replica taking ``gpus`` requests on these pools."""
        return {}

    def own_device_plugin(self, pool: NodePool) -> bool:
        """The pool's node image runs its own GPU device plugin (no Helm plugin there)."""
        return False

    def node_taints(self, pool: NodePool) -> tuple[Taint, ...]:
        """A pool's taints as its nodes carry them: the spec's, plus any the cloud adds by
        itself (pods that may run there must tolerate them all). The nvidia.com/gpu taint
        every GPU pool gets is not listed."""
        return tuple(pool.taints)

    def mig_strategy(self, plugin: ResolvedPlugin) -> Literal["single"] | None:
        """The MIG strategy the device plugin or GPU Operator runs with on MIG pools."""
        return self.operator_mig_strategy if plugin in ("gpu-operator", "dra") else None

    # --------------------------------------------------------------- capacity ladders

    ladder_kinds: ClassVar[tuple[str, ...]] = ()
    """Rung kinds this cloud's ladders climb through; empty while it renders no ladder."""

    def rung_pool_name(self, pool: str, suffix: str) -> str:
        """The node pool name of a ladder's rung: ``<pool>-<suffix>`` unless the cloud's names
        say otherwise (the shared ladder check holds it to :attr:`pool_names`)."""
        return dashed(pool, suffix)

    def ladder(self, cluster: Cluster, pool: NodePool) -> Ladder:
        """A pool's capacity ladder, its rungs' node pools named by this cloud's rule."""
        return build_ladder(cluster, pool, self.rung_pool_name)

    def check_ladder(
        self, spec: Spec, cluster: Cluster, ladder: Ladder, base: KeyPath, loc: Locator
    ) -> Iterator[Diagnostic]:
        """Checks of a ladder of several rungs that only this cloud needs.

        A cloud that renders no ladder yet refuses one here, at the pool's capacity.
        """
        yield loc.error(
            (*base, "capacity"),
            f'{self.title} cannot render a capacity ladder yet: pool "{ladder.pool.name}" '
            f"lists {len(ladder.rungs)} rungs",
            f"give the pool one capacity type (e.g. capacity: {{type: on-demand}}) or one "
            f"pool per capacity type; {self.title} ladders come with its pool priorities",
        )

    def rung_labels(self, spec: Spec, ladder: Ladder, rung: LadderRung) -> dict[str, str]:
        """Node labels of a rung's node pool: the pool's, plus the rung and the cloud's own."""
        labels = self.pool_labels(spec, ladder.pool)
        if ladder.is_ladder:
            labels[RUNG_LABEL] = rung.name
        return dict(sorted(labels.items()))

    def ladder_platform(self, spec: Spec, cluster: Cluster) -> LadderPlatform:
        """What the platform stage renders for the cluster's ladders (nothing by default)."""
        return LadderPlatform()

    # --------------------------------------------------------------- roots and plans

    def infra(self, env: EnvSpec, cluster: Cluster) -> InfraPart:
        """A cluster of this cloud in its infra root.

        Raises:
            GpuplatError: The cloud cannot be rendered.
        """
        raise NotImplementedError

    def kube_auth(self, cluster: Cluster) -> KubeAuth:
        """How the platform and serving stages authenticate to the cluster's API."""
        raise NotImplementedError

    def pool_update_warning(self, before: object, after: object) -> str | None:
        """What to tell the person applying a plan that updates a pool resource in place
        (``before`` and ``after`` are its planned values), or None."""
        return None

    def planned_cluster_pools(self, values: Mapping[str, object]) -> tuple[PlannedPool, ...]:
        """Node pools a planned cluster resource (``cluster_resource``) holds itself (AKS's
        default node pool); GKE and EKS system pools are resources of their own."""
        return ()

    weights_reader_module: ClassVar[str | None] = None
    """The module that lets a model server's service account read its weights, if any."""

    def weights_reader(
        self, cluster: Cluster, source: str, namespace: str, service_account: str
    ) -> dict[str, object] | None:
        """Arguments of ``weights_reader_module`` for a server whose weights are at ``source``
        (None: nothing to grant, e.g. weights in the image or on a public hub)."""
        return None

    # --------------------------------------------------------------- nodes and their share

    def node_features(self, spec: Spec, cluster: Cluster, pool: NodePool) -> frozenset[str] | None:
        """What a pool's nodes have on that brings the cloud's own DaemonSets with it (the
        features of the catalog's ``daemonsets.yaml``), or None when gpuplat keeps no account
        of this cloud's nodes."""
        return None

    def kubelet_reserve(self, shape: Shape) -> Reserve | None:
        """CPU and memory the cloud keeps from pods on a node of ``shape`` (None: unknown)."""
        return None

    def ephemeral_disk(self, pool: NodePool) -> EphemeralDisk | None:
        """What holds a pool's pods' ephemeral storage and what of it the node keeps (None: unknown)."""
        return None

    # --------------------------------------------------------------- prices

    renders: ClassVar[bool] = True
    """gpuplat renders roots for this cloud's clusters."""
    infracost_usage_key: ClassVar[str | None] = None
    """The key infracost reads a pool's node count from (its usage file), or None."""
    infracost_per_zone: ClassVar[bool] = False
    """infracost multiplies the count by the pool's zones."""
    infracost_system: ClassVar[tuple[str, tuple[str, ...]] | None] = None
    """Where infracost reads the system pool's node count, when it is not a pool resource
    ``system`` of the cluster module: (resource address in the module, usage key path)."""
    price_notes: ClassVar[Mapping[str, str]] = {}
    """What the catalog's prices of this cloud lack, by price basis (on_demand, spot)."""

    def attached_gpus(self, pool: NodePool) -> tuple[str, int] | None:
        """GPUs attached to a host shape and priced apart from it (GCE N1), or None."""
        return None

    def credentials_hint(self, text: str) -> str | None:
        """gpuplat's hint when Terraform's output says this cloud's credentials are missing."""
        return None
