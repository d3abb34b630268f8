"""Checks only GKE needs: the GCP project, private clusters, N1 attached GPUs, flex-start and
queued pools, what COS nodes and GKE's DRA allow, and what GKE serving cannot do."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import single_capacity
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Capacity, Cluster, NodePool, Spec
from gpuplat.spec.resolve import workload_pools

_GCP_PROJECT = re.compile(r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$")
STARTS_EMPTY = ("flex-start", "queued")
"""Capacity types whose nodes are only created for pods that wait for them."""


def cluster(
    cluster: Cluster, default_zones: int, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The GCP project, a zonal cluster's zone, and the private control plane range."""
    if cluster.gcp is not None and not _GCP_PROJECT.match(cluster.gcp.project):
        yield loc.error(
            (*base, "gcp", "project"),
            f'"{cluster.gcp.project}" is not a GCP project id',
            "6-30 lowercase letters, digits and dashes, starting with a letter",
        )
    if not cluster.regional and not cluster.zones:
        yield loc.error(
            (*base, "regional"),
            "a zonal cluster needs a zone",
            "list its zone under zones (the first zone hosts the control plane)",
        )
    system = cluster.system_pool
    yield from node_counts(
        "system pool",
        system.min_nodes,
        system.max_nodes,
        len(cluster.zones) or default_zones,
        (*base, "system_pool", "min_nodes"),
        loc,
    )
    net = cluster.network
    path = (*base, "network")
    if net.control_plane_cidr is not None:
        if not net.private_nodes:
            yield loc.error(
                (*path, "control_plane_cidr"),
                "control_plane_cidr is only used with private_nodes: true",
                "set private_nodes: true or remove it",
            )
        elif not net.control_plane_cidr.endswith("/28"):
            yield loc.error(
                (*path, "control_plane_cidr"),
                "GKE needs a /28 range for the control plane",
                "e.g. 172.16.0.0/28",
            )
    elif net.private_nodes:
        yield loc.error(
            (*path, "private_nodes"),
            "private GKE nodes need control_plane_cidr",
            "add network.control_plane_cidr: 172.16.0.0/28 (a /28 not used elsewhere)",
        )
    if net.private_nodes and net.cloud_nat is None:
        # gpuplat never creates a GKE VPC: the network may already have NAT for the subnetwork,
        # and a second Cloud NAT for the same subnetwork fails to create.
        yield loc.error(
            (*path, "private_nodes"),
            "private GKE nodes on a VPC gpuplat does not own: say whether gpuplat adds Cloud NAT",
            f"set network.cloud_nat: true to create a Cloud Router and NAT for subnetwork "
            f'"{net.subnetwork or "default"}" (the nodes pull images and weights through it), '
            "or false when the VPC already has NAT for it (a second one fails to create)",
        )


def n1_shape(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """An N1 machine type with attached GPUs: the accelerator and a count it allows."""
    if pool.accelerator is None:
        attachable = ", ".join(a.name for a in catalog.gke_accelerators() if a.allowed_counts)
        yield loc.error(
            (*base, "accelerator"),
            f"{pool.machine_type} needs an attached GPU",
            f"set accelerator to one of: {attachable}",
        )
        return
    accel = catalog.gke_accelerator(pool.accelerator)
    if accel is None:
        close = catalog.close_matches("gke_accelerator", pool.accelerator)
        yield loc.error(
            (*base, "accelerator"),
            f'unknown GKE accelerator "{pool.accelerator}"',
            f'did you mean "{close[0]}"?' if close else None,
        )
        return
    if accel.attach != "attached":
        yield loc.error(
            (*base, "accelerator"),
            f"{accel.name} comes bundled with its own machine series; it cannot be attached to {pool.machine_type}",
            "pick the machine type of that GPU instead of an N1 shape",
        )
        return
    if pool.gpus_per_node is None:
        yield loc.error(
            (*base, "gpus_per_node"),
            f"{pool.machine_type} with {accel.name} needs gpus_per_node",
            f"one of: {_counts(accel.allowed_counts)}",
        )
    elif accel.allowed_counts and pool.gpus_per_node not in accel.allowed_counts:
        yield loc.error(
            (*base, "gpus_per_node"),
            f"{accel.name} can be attached {_counts(accel.allowed_counts)} at a time, not {pool.gpus_per_node}",
            "pick one of those counts",
        )


def pool(pool: NodePool, plugin: str, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Flex-start and queued pools, compact placement policies, drivers on COS and for DRA."""
    cap, auto = single_capacity(pool), pool.autoscaling
    if cap is not None and cap.type in STARTS_EMPTY:
        if auto.min_nodes != 0:
            yield loc.error(
                (*base, "autoscaling", "min_nodes"),
                f"{cap.type} pools start with no nodes: min_nodes must be 0",
                "nodes are created when pods wait for them",
            )
        if auto.location_policy == "BALANCED":
            yield loc.error(
                (*base, "autoscaling", "location_policy"),
                f"{cap.type} pools need location_policy ANY",
                "remove location_policy (ANY is the default here)",
            )
    if pool.placement.policy is not None and not pool.placement.compact:
        yield loc.error(
            (*base, "placement", "policy"),
            "placement.policy needs compact: true",
            "set placement.compact: true",
        )
    image = pool.image or "COS_CONTAINERD"
    if pool.driver.install == "none" and image == "COS_CONTAINERD":
        yield loc.error(
            (*base, "driver", "install"),
            "on COS nodes only GKE can install the NVIDIA driver; the GPU Operator cannot",
            "set image: UBUNTU_CONTAINERD on this pool, or driver.install: managed",
        )
    if cap is not None and cap.type == "queued" and pool.placement.compact:
        yield loc.error(
            (*base, "placement", "compact"),
            "GKE does not place queued-provisioning pools compactly",
            "remove placement.compact, or use flex-start or a reservation for compact placement",
        )
    if plugin == "dra" and pool.sharing.mode != "none":
        yield loc.error(
            (*base, "sharing", "mode"),
            f"GKE's DRA does not support sharing GPUs ({pool.sharing.mode})",
            "GKE's DRA limitations exclude MIG, time-sharing and MPS: set sharing.mode: none, "
            "or use addons.device_plugin: managed for shared GPUs",
        )
    if plugin == "dra" and pool.driver.install == "managed":
        yield loc.error(
            (*base, "driver", "install"),
            "GKE pools for DRA must not auto-install the GPU driver",
            "set driver.install: none; gpuplat's platform stage installs the driver and the NVIDIA DRA driver",
        )


def boot_disk(
    pool: NodePool, hyperdisk_only: tuple[str, ...], base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Persistent Disk on a machine series that boots only from Hyperdisk (A3 Ultra, A4, A4X,
    G4): GKE cannot create the pool's nodes."""
    disk = pool.disk.type
    if (
        disk is None
        or not disk.startswith("pd-")
        or not pool.machine_type.startswith(hyperdisk_only)
    ):
        return
    yield loc.error(
        (*base, "disk", "type"),
        f"{pool.machine_type} boots only from Hyperdisk; {disk} is Persistent Disk",
        "use hyperdisk-balanced (the default for this machine type when disk.type is left out)",
    )


def local_ssds(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A machine type that comes with local SSDs (A2 Ultra, A3, A4) has exactly that many:
    Compute attaches them with the VM ("Add Local SSD disks": every machine type of these
    series comes with Local SSD storage), and GKE's EphemeralStorageLocalSsdConfig takes the
    machine's own count for Gen3 machines."""
    count = pool.disk.local_ssd_count
    shape = catalog.shape("gke", pool.machine_type)
    bundled = shape.nvme_disks if shape is not None else None
    if count is None or bundled is None or count == bundled:
        return
    yield loc.error(
        (*base, "disk", "local_ssd_count"),
        f"{pool.machine_type} comes with {bundled} local SSDs, not {count}",
        f"set disk.local_ssd_count: {bundled}",
    )


_DISK_IMAGE = re.compile(
    r"^(projects/[a-z][-a-z0-9.:]*[a-z0-9]/)?global/images/[a-z]([-a-z0-9]{0,61}[a-z0-9])?$"
)
"""A Compute Engine image by its resource path (GKE "Use secondary boot disks": the disk image
is named projects/PROJECT/global/images/IMAGE, or global/images/IMAGE in the cluster's
project)."""


def secondary_boot_disks(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Each secondary boot disk names a disk image GKE can find."""
    for i, disk in enumerate(pool.secondary_boot_disks):
        if _DISK_IMAGE.match(disk.disk_image):
            continue
        yield loc.error(
            (*base, "secondary_boot_disks", i, "disk_image"),
            f'"{disk.disk_image}" is not a Compute Engine disk image path',
            "write projects/<project>/global/images/<name> (or global/images/<name> in the "
            "cluster's project)",
        )


def named_reservation(cap: Capacity, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A reservation GKE will really use: without a name a pool is ANY_RESERVATION, an on-demand
    VM that takes a matching reservation only if one happens to be free (Compute
    ReservationAffinity; ComputeClass "Consume Compute Engine reservations"), so a ladder
    never reaches its cheaper rungs and cost would price on-demand VMs as reserved ones."""
    if cap.type != "reservation" or cap.reservation is not None:
        return
    yield loc.error(
        path,
        "a reservation without a name is GKE's ANY_RESERVATION: an on-demand VM that uses a "
        "matching reservation only if one happens to be free",
        "name the reservation (reservation: <name>, and reservation_project when it is shared "
        "from another project), or use on-demand capacity",
    )


def node_counts(
    what: str, low: int, high: int, zones: int, path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """A minimum GKE can create: it creates a pool with the same count in every zone
    (``initial_node_count``, or ``node_count`` of a fixed pool), and its autoscaler never
    scales a pool up to its minimum, so the minimum is rounded up to a multiple of the zones."""
    per_zone = -(-low // zones)
    if low > high or per_zone * zones <= high:
        return  # min above max is refused on its own
    yield loc.error(
        path,
        f"{what} min_nodes {low} over {zones} zones: GKE creates nodes in equal numbers per "
        f"zone, {per_zone} in each, {per_zone * zones} in all, above max_nodes {high}",
        f"make min_nodes a multiple of {zones} (e.g. {per_zone * zones} with max_nodes "
        f"{max(high, per_zone * zones)}), raise max_nodes to {per_zone * zones}, or list "
        "fewer zones for the pool",
    )


def workloads(spec: Spec, cluster: Cluster, loc: Locator) -> Iterator[Diagnostic]:
    """What a workload on a GKE cluster cannot do: queued pools, s3:// weights, HPA metrics."""
    for i, workload in enumerate(spec.workloads):
        if cluster.name not in workload.clusters:
            continue
        base: KeyPath = ("workloads", i)
        pools = workload_pools(spec, workload).get(cluster.name, [])
        # A ladder has no queued rung.
        queued = [
            p.name for p in pools if (c := single_capacity(p)) is not None and c.type == "queued"
        ]
        if queued:
            key = "pool" if workload.pool is not None else "accelerator"
            yield loc.error(
                (*base, key),
                f'queued-provisioning pool(s) {", ".join(queued)} of cluster "{cluster.name}" '
                "get nodes only for a ProvisioningRequest; a model server's Deployment on them "
                "would stay Pending",
                "serve from on-demand, spot, reservation or flex-start pools; queued pools are "
                "for batch jobs admitted by Kueue with a ProvisioningRequest",
            )
        created = [p.name for p in pools if p.compute_class and p.compute_class.auto_create]
        if created and len(pools) > 1:
            key = "pool" if workload.pool is not None else "accelerator"
            yield loc.error(
                (*base, key),
                f'pool "{created[0]}" lets GKE create its nodes, which carry its ComputeClass\'s '
                "label and not gpuplat's pool label: its workloads are placed by the class "
                f"alone, so they run on that pool only, not also on {len(pools) - 1} other(s)",
                f"set pool: {created[0]}, or remove compute_class.auto_create",
            )
        if workload.model.source.startswith("s3://"):
            yield loc.error(
                (*base, "model", "source"),
                f'GKE cluster "{cluster.name}" has no identity that may read s3:// weights',
                "copy the weights to a gs:// bucket (gpuplat grants the workload read access to "
                "it through Workload Identity), or serve them from hf:// or the image",
            )


def _counts(counts: tuple[int, ...] | None) -> str:
    return ", ".join(str(c) for c in counts) if counts else "?"
