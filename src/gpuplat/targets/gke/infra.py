"""GKE's part of an infra root: the gke-cluster and gke-gpu-node-pool module calls, and how a
planned node pool counts its GPUs.

Every value here is plain data; the templates write it through the one quoting function.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuplat import catalog
from gpuplat.hcl.writer import raw
from gpuplat.render.naming import module_label
from gpuplat.render.views import ClusterView, InfraPart, PoolView
from gpuplat.spec.ladder import Ladder, LadderRung, single_capacity
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.spec.resolve import resolve_pool
from gpuplat.targets.base import Target
from gpuplat.targets.gke import calendar, gpunets, node
from gpuplat.targets.planvalues import PlannedPool, first, ladder_of, number
from gpuplat.targets.poolviews import shared_pool_view
from gpuplat.targets.tags import TAINT_EFFECT, gpuplat_tags, resource_labels
from gpuplat.webhooks import webhook_ports

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

CAPACITY = {
    "on-demand": "ON_DEMAND",
    "spot": "SPOT",
    "reservation": "RESERVATION",
    "flex-start": "FLEX_START",
    "queued": "QUEUED",
}
SHARING = {"time-slicing": "TIME_SHARING", "mps": "MPS"}
# Machine series whose boot disks must be Hyperdisk (they have no Persistent Disk support).
HYPERDISK_ONLY = ("a4-", "a4x-", "a3-ultragpu-", "g4-")


def part(target: Target, env: EnvSpec, cluster: Cluster) -> InfraPart:
    """A GKE cluster in its infra root."""
    return InfraPart(
        cluster=cluster_view(target, env, cluster),
        modules=frozenset({"gke-cluster", "gke-gpu-node-pool"}),
        providers={"default_labels": gpuplat_tags(env)},
    )


def cluster_view(target: Target, env: EnvSpec, cluster: Cluster) -> ClusterView:
    """Arguments of the gke-cluster module call for one cluster."""
    assert cluster.gcp is not None  # the checks require gcp for GKE clusters
    k8s = cluster.kubernetes
    channel = calendar.channel(cluster)
    network = cluster.network
    deletion_protection = (
        cluster.deletion_protection if cluster.deletion_protection is not None else env.protected
    )
    module = module_label("cluster", cluster.name)
    args: dict[str, object] = {
        "project": cluster.gcp.project,
        "name": cluster.name,
        "location": cluster.region if cluster.regional else cluster.zones[0],
        "node_locations": list(cluster.zones),
        "release_channel": "UNSPECIFIED" if channel == "NONE" else channel,
        "kubernetes_version": k8s.version,
        "deletion_protection": deletion_protection,
        "network": {
            "network": network.network or "default",
            "subnetwork": network.subnetwork or "default",
            "private_nodes": network.private_nodes,
            "cloud_nat": bool(network.cloud_nat),
            "control_plane_cidr": network.control_plane_cidr,
            "authorized_networks": [
                {"cidr": a.cidr, "name": a.name} for a in network.authorized_networks
            ],
        },
        "system_pool": {
            "machine_type": cluster.system_pool.machine_type or target.default_system_machine,
            "min_nodes": cluster.system_pool.min_nodes,
            "max_nodes": cluster.system_pool.max_nodes,
        },
        "webhook_ports": list(webhook_ports(env.spec, cluster)),
        # GKE's own DCGM collection only where gpuplat's metrics choice says GKE exports them.
        "dcgm_metrics": node.gke_dcgm(env.spec, target.device_plugin(env.spec)),
        "resource_labels": resource_labels(env, cluster),
    }
    maintenance = cluster.gcp.maintenance
    if maintenance is not None:
        args["maintenance"] = maintenance.model_dump(exclude_none=True)
    nets = gpunets.gpu_networks(cluster)
    if nets is not None and nets.created is not None:
        args[nets.module_key] = nets.created
    elif nets is not None:
        # Existing GPU networks: gpuplat creates none, the pools attach to them by name.
        args["multi_networking"] = True
    return ClusterView(
        cloud="gke",
        name=cluster.name,
        module=module,
        args=args,
        pools=tuple(
            pool_view(target, env, cluster, lad, rung, module)
            for lad in (target.ladder(cluster, pool) for pool in cluster.node_pools)
            for rung in lad.rungs
        ),
    )


def pool_view(
    target: Target,
    env: EnvSpec,
    cluster: Cluster,
    lad: Ladder,
    rung: LadderRung,
    cluster_module: str,
) -> PoolView:
    """Arguments of the gke-gpu-node-pool module call for one node pool: a pool, or one rung
    of a pool's capacity ladder (built once for the environments that share them)."""
    return shared_pool_view(
        (target, cluster, lad, rung),
        (cluster_module, target.device_plugin(env.spec)),
        lambda: _pool_view(target, env, cluster, lad, rung, cluster_module),
        "resource_labels",
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
    spec's add-ons, resolved) and its resource labels only."""
    pool = rung.pool
    assert not isinstance(pool.capacity, list)  # a rung's node pool has one capacity type
    gpu = resolve_pool(cluster, pool)
    managed_plugin = target.device_plugin(env.spec) == "managed"
    sharing = pool.sharing
    accelerator: dict[str, object] = {
        "type": gpu.accelerator,
        "count": gpu.gpus_per_node,
        "driver_version": "INSTALLATION_DISABLED"
        if pool.driver.install == "none"
        else pool.driver.version,
    }
    if sharing.mode in SHARING and managed_plugin:
        # With GKE's own device plugin, GKE shares the GPUs; otherwise the plugin gpuplat
        # installs does it (see addons.py).
        accelerator["sharing"] = {
            "strategy": SHARING[sharing.mode],
            "max_clients": sharing.max_clients,
        }
    if sharing.mode == "mig":
        accelerator["partition_size"] = sharing.profile
    capacity_type = pool.capacity.type
    capacity: dict[str, object] = {"type": CAPACITY[capacity_type]}
    if pool.capacity.reservation is not None:
        capacity["reservation"] = pool.capacity.reservation
    if pool.capacity.reservation_project is not None:
        capacity["reservation_project"] = pool.capacity.reservation_project
    if pool.capacity.max_run_duration is not None:
        capacity["max_run_duration"] = f"{pool.capacity.max_run_duration}s"
    policy = pool.autoscaling.location_policy
    if policy is None:
        # Scarce capacity: take GPUs in whichever zone has them rather than balancing zones.
        policy = "ANY" if capacity_type in ("spot", "flex-start", "queued") else "BALANCED"
    disk_type_ = disk_type(pool)
    ref = f"module.{cluster_module}"
    args: dict[str, object] = {
        "project": raw(f"{ref}.project"),
        "location": raw(f"{ref}.location"),
        "cluster": raw(f"{ref}.name"),
        "service_account": raw(f"{ref}.node_service_account"),
        "name": pool.name,
        "machine_type": pool.machine_type,
        "node_locations": list(pool.zones) if pool.zones is not None else None,
        # The minimum is created spread over the pool's zones (GKE counts nodes per zone).
        "zone_count": zone_count(target, cluster, pool),
        "accelerator": accelerator,
        "autoscaling": {
            "min_nodes": pool.autoscaling.min_nodes,
            "max_nodes": pool.autoscaling.max_nodes,
            "per_zone": pool.autoscaling.per_zone,
            "location_policy": policy,
        },
        "capacity": capacity,
    }
    if pool.placement.compact:
        args["compact_placement"] = {"enabled": True, "policy_name": pool.placement.policy}
    args.update(
        {
            "labels": target.rung_labels(env.spec, lad, rung),
            "taints": [
                {"key": t.key, "value": t.value, "effect": TAINT_EFFECT[t.effect]}
                for t in pool.taints
            ]
            + [{**t, "effect": TAINT_EFFECT[t["effect"]]} for t in target.rung_taints(lad)],
            "disk": _disk(pool, disk_type_),
            "image_type": pool.image or "COS_CONTAINERD",
            "network_tags": [raw(f"{ref}.node_tag")],
            # The GPU Operator's driver container builds unsigned kernel modules, which Secure
            # Boot refuses to load; GKE's own driver is signed.
            "secure_boot": pool.driver.install != "none",
            "resource_labels": resource_labels(env, cluster),
        }
    )
    nets = gpunets.gpu_networks(cluster) if pool.gpudirect is not None else None
    if nets is not None:
        # One interface per GPU NIC, each on its own subnet (the cluster module's outputs make
        # the pool wait for the networks it creates).
        args["additional_node_networks"] = nets.node_networks(ref)
    if pool.secondary_boot_disks:
        args["secondary_boot_disks"] = [
            {"disk_image": d.disk_image, "mode": BOOT_DISK_MODE[d.mode]}
            for d in pool.secondary_boot_disks
        ]
    return PoolView(
        name=pool.name,
        module=module_label("pool", cluster.name, pool.name),
        machine_type=pool.machine_type,
        args=args,
    )


BOOT_DISK_MODE = {"container-image-cache": "CONTAINER_IMAGE_CACHE", "data": "MODE_UNSPECIFIED"}
"""The GKE API's SecondaryBootDisk.Mode for each spec mode."""


def _disk(pool: NodePool, type_: str) -> dict[str, object]:
    disk: dict[str, object] = {"size_gb": pool.disk.size_gb, "type": type_}
    if pool.disk.local_ssd_count:
        disk["local_ssd_count"] = pool.disk.local_ssd_count
    return disk


def disk_type(pool: NodePool) -> str:
    """The pool's boot disk type as rendered: the spec's, else the machine series' default."""
    if pool.disk.type is not None:
        return pool.disk.type
    return "hyperdisk-balanced" if pool.machine_type.startswith(HYPERDISK_ONLY) else "pd-balanced"


def zone_count(target: Target, cluster: Cluster, pool: NodePool | None) -> int:
    """Zones of a GKE pool's nodes: its own, the cluster's, else GKE's default (the system
    pool, ``pool`` None, spreads over the cluster's, as the gke-cluster module counts them)."""
    zones = pool.zones if pool is not None and pool.zones is not None else cluster.zones
    return len(zones) if zones else target.default_zone_count(cluster)


def min_nodes_created(target: Target, cluster: Cluster, pool: NodePool | None) -> int:
    """Nodes GKE creates for a pool's minimum, in all its zones (``pool`` None: the system pool).

    The modules create a pool with ``initial_node_count = ceil(min_nodes / zone_count)`` (or
    ``min_nodes`` per zone when the bounds are per zone), in every zone, and GKE's autoscaler
    does not scale a pool down to a minimum it was created above: a regional system pool with
    min_nodes 1 over 2 zones runs 2 nodes. A pool that starts empty (flex-start, queued) and a
    capacity ladder (its first rung starts at 0) are created at no nodes: their minimum stands.
    """
    zones = zone_count(target, cluster, pool)
    if pool is None:
        low = cluster.system_pool.min_nodes
        return -(-low // zones) * zones
    low = pool.autoscaling.min_nodes
    if pool.autoscaling.per_zone:
        return low * zones
    capacity = single_capacity(pool)
    if capacity is None or capacity.type in ("flex-start", "queued"):
        return low
    return -(-low // zones) * zones


def planned_zones(values: Mapping[str, object]) -> int | None:
    """Zones of a planned ``google_container_cluster``'s node pools, as the gke-cluster module
    counts them: its node locations, else three for a regional cluster and one for a zonal."""
    zones = values.get("node_locations")
    if isinstance(zones, list) and zones:
        return len(zones)
    location = values.get("location")
    if not isinstance(location, str) or not location:
        return None
    return 3 if len(location.split("-")) == 2 else 1


def read_pool(values: Mapping[str, object], cluster_zones: int | None = None) -> PlannedPool | None:
    """A planned ``google_container_node_pool``: shape, capacity, bounds and GPUs.

    ``cluster_zones`` are the zones of its cluster (:func:`planned_zones`), which a pool without
    node locations of its own spreads over.
    """
    config = first(values, "node_config")
    auto = first(values, "autoscaling")
    zones = values.get("node_locations")
    factor = len(zones) if isinstance(zones, list) and zones else 1
    spread = len(zones) if isinstance(zones, list) and zones else cluster_zones
    low = number(auto, "total_min_node_count")
    high = number(auto, "total_max_node_count")
    if low is None or high is None:
        per_zone = (number(auto, "min_node_count"), number(auto, "max_node_count"))
        if per_zone[0] is not None and per_zone[1] is not None:
            # Per-zone bounds: multiply by the zones the pool spans.
            low, high = per_zone[0] * factor, per_zone[1] * factor
        else:
            count = number(values, "node_count", "initial_node_count")
            if count is None:
                return None
            low = high = count * factor
    initial = number(values, "initial_node_count")
    if initial is not None and spread is not None:
        # GKE creates initial_node_count in every zone, and does not scale below it to the
        # minimum (min_nodes_created): the fewest nodes the pool runs.
        low = min(max(low, initial * spread), high)
    capacity = "on-demand"
    if config.get("spot") is True or config.get("preemptible") is True:
        capacity = "spot"
    elif config.get("flex_start") is True:
        capacity = "flex-start"
    elif first(values, "queued_provisioning").get("enabled") is True:
        capacity = "queued"
    elif first(config, "reservation_affinity").get("consume_reservation_type") in (
        "ANY_RESERVATION",
        "SPECIFIC_RESERVATION",
    ):
        capacity = "reservation"
    machine = config.get("machine_type")
    machine = machine if isinstance(machine, str) else None
    accelerator = first(config, "guest_accelerator")
    count = number(accelerator, "count")
    attached = None
    kind = accelerator.get("type")
    shape = catalog.shape("gke", machine) if machine else None
    if isinstance(kind, str) and count and (shape is None or shape.gpu_model is None):
        attached = (kind, count)  # an N1 host with attached GPUs, priced per GPU
    ladder = ladder_of(config.get("labels"))
    return PlannedPool("gke", machine, capacity, low, high, count or None, attached, ladder)
