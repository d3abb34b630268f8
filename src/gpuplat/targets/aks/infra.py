"""AKS's part of an infra root: the aks-cluster, aks-gpu-node-pool and aks-workload-identity
module calls, the azurerm provider they need, and how a planned node pool counts its GPUs.

A pool with a capacity ladder renders one aks-gpu-node-pool call per rung, each carrying the
pool's labels (workloads still select the pool) and the ladder's whole cap as its maximum.

Every value here is plain data; the templates write it through the one quoting function.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuplat import catalog
from gpuplat.hcl.writer import raw
from gpuplat.render.naming import module_label
from gpuplat.render.views import ClusterView, IdentityView, InfraPart, PoolView
from gpuplat.spec.ladder import Ladder, LadderRung
from gpuplat.spec.model import Cluster, Taint
from gpuplat.spec.resolve import resolve_pool
from gpuplat.targets.aks import fabric, metrics
from gpuplat.targets.aks.node import MAX_PODS
from gpuplat.targets.base import Target
from gpuplat.targets.planvalues import PlannedPool, first, number
from gpuplat.targets.poolviews import shared_pool_view
from gpuplat.targets.tags import resource_labels
from gpuplat.workload.blob import BLOB_READER_ROLE, BlobReader, blob_reader

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

SYSTEM_POOL = "system"
"""Name of the default (system) node pool, which AKS requires and never scales to zero."""
SPOT_TAINT = Taint(key="kubernetes.azure.com/scalesetpriority", value="spot", effect="NoSchedule")
"""The taint AKS puts on every node of a spot pool."""
DEFAULT_IMAGE = "Ubuntu"


def part(target: Target, env: EnvSpec, cluster: Cluster, expander: str) -> InfraPart:
    """An AKS cluster in its infra root, and the azurerm provider it needs; ``expander`` is the
    cluster autoscaler's (how it picks among the pools that fit a pending pod)."""
    view = cluster_view(target, env, cluster, expander)
    modules = {"aks-cluster", "aks-gpu-node-pool"}
    if view.identities:
        modules.add("aks-workload-identity")
    if view.prometheus is not None:
        modules.add("aks-managed-prometheus")
    assert cluster.azure is not None  # the checks require azure for AKS clusters
    return InfraPart(
        cluster=view,
        modules=frozenset(modules),
        providers={"subscription_id": cluster.azure.subscription_id},
    )


def cluster_view(target: Target, env: EnvSpec, cluster: Cluster, expander: str) -> ClusterView:
    """The aks-cluster call of one cluster, its pools' and its workloads' identities."""
    azure = cluster.azure
    assert azure is not None
    network = cluster.network
    module = module_label("cluster", cluster.name)
    tags = resource_labels(env, cluster)
    system = cluster.system_pool
    args: dict[str, object] = {
        "name": cluster.name,
        "resource_group_name": azure.resource_group,
        "location": cluster.region,
        "kubernetes_version": cluster.kubernetes.version,
        "network": {
            "subnet_id": network.subnet_ids[0] if network.subnet_ids else None,
            "private_cluster": not network.public_endpoint,
            "authorized_ip_ranges": [a.cidr for a in network.authorized_networks],
        },
        # Kubernetes authorization through Azure roles in every environment: the later stages
        # sign in as an Entra identity (kubelogin), which Kubernetes RBAC would bind to nothing
        # but the admins groups. Protected (prod-like) environments also turn local accounts
        # off, so every access is an Entra identity that can be revoked.
        "entra": {
            "admin_group_object_ids": list(azure.admins),
            "azure_rbac_enabled": True,
        },
        "deployer_admin": azure.deployer_admin,
        "local_account_disabled": env.protected,
        "system_pool": {
            "vm_size": system.machine_type or target.default_system_machine,
            "min_nodes": system.min_nodes,
            "max_nodes": system.max_nodes,
            "zones": list(cluster.zones),
        },
        "autoscaler": {"expander": expander},
        "sku_tier": azure.sku_tier,
        "upgrades": {
            "channel": azure.upgrade_channel,
            "node_os_channel": azure.node_os_upgrade_channel,
        },
        "maintenance": azure.maintenance.model_dump(),
        "reservation_group_ids": reservation_groups(target, cluster),
        "tags": tags,
    }
    prometheus = None
    if metrics.needed(target, env, cluster):
        args["managed_prometheus"] = True
        prometheus = metrics.managed_prometheus_view(env, cluster, module, tags)
    identities = tuple(
        identity_view(reader, azure.resource_group, cluster.region, module, tags)
        for reader in blob_readers(env, cluster)
    )
    return ClusterView(
        cloud="aks",
        name=cluster.name,
        module=module,
        region=cluster.region,
        args=args,
        pools=tuple(
            pool_view(target, env, cluster, lad, rung, module)
            for lad in (target.ladder(cluster, pool) for pool in cluster.node_pools)
            for rung in lad.rungs
        ),
        identities=identities,
        prometheus=prometheus,
        identity_outputs={i.workload: raw(f"module.{i.module}.client_id") for i in identities},
    )


def pool_view(
    target: Target,
    env: EnvSpec,
    cluster: Cluster,
    lad: Ladder,
    rung: LadderRung,
    cluster_module: str,
) -> PoolView:
    """The aks-gpu-node-pool call of one node pool: a pool, or one rung of its ladder (built
    once for the environments that share them)."""
    return shared_pool_view(
        (target, cluster, lad, rung),
        (cluster_module, target.device_plugin(env.spec)),
        lambda: _pool_view(target, env, cluster, lad, rung, cluster_module),
        "tags",
        resource_labels(env, cluster),
    )


def _pool_view(
    target: Target,
    env: EnvSpec,
    cluster: Cluster,
    lad: Ladder,
    rung: LadderRung,
    cluster_module: str,
) -> PoolView:
    """The view of :func:`pool_view`: it reads the environment for its device plugin (the
    spec's add-ons, resolved) and its tags only."""
    pool = rung.pool
    gpu = resolve_pool(cluster, pool)
    assert gpu.gpus_per_node is not None  # the checks refuse a pool whose GPU count is unknown
    ref = f"module.{cluster_module}"
    cap = pool.capacity
    assert not isinstance(cap, list)  # a rung's node pool has the rung's one capacity
    capacity: dict[str, object] = {"priority": "Spot" if cap.type == "spot" else "Regular"}
    if cap.max_price is not None:
        capacity["spot_max_price"] = cap.max_price
    if cap.type == "reservation":
        capacity["capacity_reservation_group_id"] = cap.reservation
    gpu_instance = None
    if pool.sharing.mode == "mig" and gpu.gpu is not None:
        offered = {p: v for v, p in catalog.aks_mig_profiles(gpu.gpu.name).items()}
        gpu_instance = offered.get(pool.sharing.profile or "")
    zones = pool.zones if pool.zones is not None else cluster.zones
    args: dict[str, object] = {
        "kubernetes_cluster_id": raw(f"{ref}.id"),
        "orchestrator_version": raw(f"{ref}.kubernetes_version"),
        "vnet_subnet_id": raw(f"{ref}.node_subnet_id"),
        "name": pool.name,
        "vm_size": pool.machine_type,
        "gpus_per_node": gpu.gpus_per_node,
        "advertised_gpus": gpu.units_per_node,
        # With driver.install none the GPU Operator installs the driver (and AKS must not).
        "gpu_driver": "None" if pool.driver.install == "none" else "Install",
        "gpu_instance": gpu_instance,
        "os_sku": pool.image or DEFAULT_IMAGE,
        "capacity": capacity,
        "zones": list(zones),
        "scaling": {
            "min_nodes": pool.autoscaling.min_nodes,
            "max_nodes": pool.autoscaling.max_nodes,
        },
        "max_pods": MAX_PODS,
        "labels": target.rung_labels(env.spec, lad, rung),
        "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in pool.taints],
        "disk": {"size_gb": pool.disk.size_gb, "type": pool.disk.type or "Managed"},
        "tags": resource_labels(env, cluster),
    }
    if pool.infiniband:
        # At zero nodes the autoscaler must know a new node offers rdma/ib, or a group's pods,
        # which request it, never scale the pool up.
        args["template_resources"] = {fabric.RESOURCE: str(fabric.HCA_MAX)}
    return PoolView(
        name=pool.name,
        module=module_label("pool", cluster.name, pool.name),
        machine_type=pool.machine_type,
        accelerator=gpu.accelerator,
        gpus_per_node=gpu.gpus_per_node,
        args=args,
    )


def reservation_groups(target: Target, cluster: Cluster) -> list[str]:
    """The capacity reservation groups of the cluster's pools and ladder rungs, in order."""
    out: list[str] = []
    for pool in cluster.node_pools:
        for rung in target.ladder(cluster, pool).rungs:
            cap = rung.pool.capacity
            assert not isinstance(cap, list)  # a rung's node pool has the rung's one capacity
            if cap.type == "reservation" and cap.reservation and cap.reservation not in out:
                out.append(cap.reservation)
    return out


def blob_readers(env: EnvSpec, cluster: Cluster) -> list[BlobReader]:
    """The workloads on ``cluster`` that read Azure Blob weights as their own identity."""
    out = []
    for workload in env.spec.workloads:
        if cluster.name in workload.clusters:
            reader = blob_reader(workload, cluster)
            if reader is not None:
                out.append(reader)
    return out


def identity_view(
    reader: BlobReader,
    resource_group: str,
    location: str,
    cluster_module: str,
    tags: dict[str, str],
) -> IdentityView:
    """The aks-workload-identity call of one workload on one cluster."""
    return IdentityView(
        workload=reader.workload,
        module=module_label("identity", reader.workload, reader.cluster),
        container=f"{reader.blob.account}/{reader.blob.container}",
        args={
            "name": f"{reader.cluster}-{reader.workload}-weights",
            "resource_group_name": resource_group,
            "location": location,
            "oidc_issuer_url": raw(f"module.{cluster_module}.oidc_issuer_url"),
            "subject": reader.subject,
            "role": {"name": BLOB_READER_ROLE, "scope": reader.scope},
            "tags": tags,
        },
    )


def read_pool(values: Mapping[str, object]) -> PlannedPool | None:
    """A planned ``azurerm_kubernetes_cluster_node_pool``: VM size, capacity, bounds, GPUs."""
    return _pool(values)


def read_default_pool(values: Mapping[str, object]) -> PlannedPool | None:
    """The default (system) node pool inside a planned ``azurerm_kubernetes_cluster``."""
    return _pool(first(values, "default_node_pool"))


def _pool(values: Mapping[str, object]) -> PlannedPool | None:
    low, high = number(values, "min_count"), number(values, "max_count")
    if low is None or high is None:
        count = number(values, "node_count")
        if count is None:
            return None
        low = high = count
    machine = values.get("vm_size")
    machine = machine if isinstance(machine, str) else None
    capacity = "on-demand"
    if values.get("priority") == "Spot":
        capacity = "spot"
    elif values.get("capacity_reservation_group_id"):
        capacity = "reservation"
    shape = catalog.shape("aks", machine) if machine else None
    gpus = shape.gpu_count if shape is not None and shape.gpu_count else None
    price = values.get("spot_max_price")
    # -1 (the default) is no cap of the pool's own: evicted only for capacity.
    max_price = float(price) if isinstance(price, int | float) and price > 0 else None
    return PlannedPool("aks", machine, capacity, low, high, gpus, max_price=max_price)
