"""Checks only AKS needs: the Azure account block, the system (default) node pool, subnets,
zones of regions that have none, MIG profiles AKS can select, OS SKUs, spot prices, capacity
reservation groups and Ephemeral OS disks."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import single_capacity
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.spec.resolve import PoolGpu, version_tuple

GUID = re.compile(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")
_RESOURCE_GROUP = re.compile(r"^[-\w._()]{0,89}[-\w_()]$")
_SUBNET_ID = re.compile(
    r"^/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[-\w._()]+/providers/"
    r"Microsoft\.Network/virtualNetworks/[-\w.]+/subnets/[-\w.]+$",
    re.IGNORECASE,
)
_CAPACITY_GROUP = re.compile(
    r"^/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/[-\w._()]+/providers/"
    r"Microsoft\.Compute/capacityReservationGroups/[-\w.]+$",
    re.IGNORECASE,
)


def cluster(cluster: Cluster, plugin: str, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """The account block, the version, the system pool, the device plugin and the network."""
    azure = cluster.azure
    if azure is not None:
        path = (*base, "azure")
        if not GUID.match(azure.subscription_id):
            yield loc.error(
                (*path, "subscription_id"),
                f'"{azure.subscription_id}" is not a subscription id',
                "a subscription id is a GUID: `az account show --query id -o tsv`",
            )
        if not _RESOURCE_GROUP.match(azure.resource_group):
            yield loc.error(
                (*path, "resource_group"),
                f'"{azure.resource_group}" is not a resource group name',
                "1-90 letters, digits, -, _, ., ( and ); it cannot end with a period",
            )
        for k, admin in enumerate(azure.admins):
            if not GUID.match(admin):
                yield loc.error(
                    (*path, "admins", k),
                    f'"{admin}" is not the object id of a Microsoft Entra group',
                    "`az ad group show --group <name> --query id -o tsv` prints it (a GUID)",
                )
        if not azure.deployer_admin and not azure.admins:
            # kubelogin signs the later stages in as an Entra identity, which Kubernetes RBAC
            # binds to nothing and Azure RBAC authorizes only through a role: nobody could
            # apply the platform and serving stages, whatever the local accounts.
            yield loc.error(
                (*path, "deployer_admin"),
                "nobody could run the platform and serving stages: they reach the API as an "
                "Entra identity (kubelogin), and with deployer_admin off and no admins groups "
                "no identity is authorized (403)",
                "set deployer_admin: true (the deploying identity gets Azure Kubernetes Service "
                "RBAC Cluster Admin on the cluster), or list an Entra group's object id under "
                "admins",
            )
    version = cluster.kubernetes.version
    parsed = version_tuple(version) if version is not None else None
    if parsed is not None and version is not None and "-" in version:
        yield loc.error(
            (*base, "kubernetes", "version"),
            f'AKS takes a Kubernetes version such as "1.34" or "1.34.1", not "{version}"',
            f'write "{parsed[0]}.{parsed[1]}" (AKS picks the newest patch)',
        )
    yield from _system_pool(cluster, (*base, "system_pool"), loc)
    if plugin == "managed":
        yield loc.error(
            ("addons", "device_plugin"),
            "AKS installs the NVIDIA driver but no GPU device plugin",
            f'cluster "{cluster.name}" is on AKS; use auto (the NVIDIA device plugin) or '
            "gpu-operator",
        )
    yield from _network(cluster, (*base, "network"), loc)


def _system_pool(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    system = cluster.system_pool
    if system.machine_type is not None:
        shape = catalog.shape("aks", system.machine_type)
        if shape is not None and shape.gpu_model is not None:
            yield loc.error(
                (*path, "machine_type"),
                f"{system.machine_type} is a GPU size; AKS's default node pool is the system "
                "pool, which never scales to zero",
                "give system_pool a CPU size such as Standard_D4s_v5 and put the GPUs in a "
                "pool under node_pools (they scale to zero there)",
            )
    if system.spot:
        yield loc.error(
            (*path, "spot"),
            "AKS system node pools cannot be Spot",
            "remove spot from system_pool; spot capacity goes on the GPU pools "
            "(node_pools[].capacity.type: spot)",
        )
    if system.min_nodes < 1:
        yield loc.error(
            (*path, "min_nodes"),
            "an AKS system node pool needs at least one node",
            "set min_nodes: 1 (the GPU pools under node_pools can scale to zero)",
        )


def _network(cluster: Cluster, path: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    net = cluster.network
    if len(net.subnet_ids) > 1:
        yield loc.error(
            (*path, "subnet_ids", 1),
            f"an AKS cluster takes one node subnet; {len(net.subnet_ids)} are listed",
            "keep the one subnet every node pool joins (pods get overlay addresses)",
        )
    for k, subnet in enumerate(net.subnet_ids):
        if not _SUBNET_ID.match(subnet):
            yield loc.error(
                (*path, "subnet_ids", k),
                f'"{subnet}" is not the resource id of a subnet',
                "e.g. /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Network/"
                "virtualNetworks/<vnet>/subnets/<subnet>",
            )
    if not net.public_endpoint and net.authorized_networks:
        yield loc.error(
            (*path, "authorized_networks"),
            "authorized_networks limit the public endpoint, and public_endpoint is false "
            "(a private cluster)",
            "remove authorized_networks, or set public_endpoint: true",
        )


def pool(
    cluster: Cluster, pool: NodePool, gpu: PoolGpu, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """MIG profiles AKS can select, OS SKUs, spot prices, reservations, vGPU sizes, OS disks.

    MIG pools may run Ubuntu or Azure Linux: AKS partitions the GPUs (gpu_instance) on both
    with its own driver, and the NVIDIA device plugin hands the instances out the same way."""
    if gpu.shape is not None and gpu.shape.vgpu:
        yield loc.error(
            (*base, "machine_type"),
            f"{pool.machine_type} is a slice of a GPU (vGPU), which needs NVIDIA's GRID driver; "
            "AKS installs the datacenter driver",
            "use a whole-GPU size, e.g. Standard_NV36ads_A10_v5 or Standard_NC4as_T4_v3",
        )
    if pool.sharing.mode == "mig":
        yield from _mig(pool, gpu, plugin, base, loc)
    if plugin in ("gpu-operator", "dra") and pool.driver.install == "managed":
        yield loc.error(
            (*base, "driver", "install"),
            "on AKS the GPU Operator installs the NVIDIA driver and container toolkit itself; "
            "AKS's own driver on the same nodes conflicts with them",
            "set driver.install: none on the cluster's pools (gpu_driver None), or use "
            "addons.device_plugin: auto (the NVIDIA device plugin with AKS's driver)",
        )
    image = pool.image or "Ubuntu"
    if image == "AzureLinux" and pool.driver.install == "none":
        yield loc.error(
            (*base, "image"),
            "the GPU Operator's driver does not support Azure Linux nodes",
            "use image: Ubuntu for pools whose driver the GPU Operator installs, or "
            "driver.install: managed (AKS installs the driver on Azure Linux)",
        )
    yield from _capacity(pool, base, loc)
    yield from _disk(pool, gpu, base, loc)


def _mig(
    pool: NodePool, gpu: PoolGpu, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    path = (*base, "sharing")
    model, profile = gpu.gpu, pool.sharing.profile
    if model is None or not model.mig_capable or profile is None:
        return  # the shared sharing check reports these
    offered = catalog.aks_mig_profiles(model.name)
    if profile in catalog.mig_profiles(model.name) and profile not in offered.values():
        listed = ", ".join(f"{name} ({value})" for value, name in offered.items())
        yield loc.error(
            (*path, "profile"),
            f"AKS cannot select MIG profile {profile} on {model.name}: its gpu_instance "
            "names only the compute slices, and picks the smallest profile of each",
            f"use one of {listed}, or run this pool on GKE or EKS for {profile}",
        )
    if plugin in ("gpu-operator", "dra"):
        yield loc.error(
            (*path, "mode"),
            "AKS partitions MIG pools itself (gpu_instance); gpuplat hands the instances out "
            "with the NVIDIA device plugin, not the GPU Operator or DRA, whose MIG manager "
            "would repartition the GPUs",
            "set addons.device_plugin: auto for this cluster, or drop MIG on this pool",
        )
    if pool.driver.install == "none":
        yield loc.error(
            (*base, "driver", "install"),
            "AKS partitions MIG only on nodes with its own GPU driver",
            "set driver.install: managed on MIG pools",
        )


def _capacity(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    cap = single_capacity(pool)
    path = (*base, "capacity")
    if cap is None:
        return  # a ladder: refused by the AKS target's check_ladder
    if cap.max_price is not None and cap.type != "spot":
        yield loc.error(
            (*path, "max_price"),
            "max_price is the most a spot node may cost; the pool is " + cap.type,
            "set type: spot, or remove max_price",
            at_key=True,
        )
    if cap.type == "reservation":
        yield from reservation_group(cap.reservation, (*path, "reservation"), "pool", loc)


def reservation_group(
    group: str | None, path: KeyPath, what: str, loc: Locator
) -> Iterator[Diagnostic]:
    """The capacity reservation group a reservation pool or rung draws from: named, and the
    shape of an Azure resource id (``path`` is where it is written)."""
    if group is None:
        yield loc.error(
            path,
            f"an AKS reservation {what} needs the capacity reservation group it draws from",
            "reservation: /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Compute/"
            "capacityReservationGroups/<name>",
        )
    elif not _CAPACITY_GROUP.match(group):
        yield loc.error(
            path,
            f'"{group}" is not the resource id of a capacity reservation group',
            "e.g. /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Compute/"
            "capacityReservationGroups/<name>",
        )


def _disk(pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    if pool.disk.type != "Ephemeral" or gpu.shape is None:
        return
    temp = gpu.shape.temp_disk_gib
    if temp is not None and pool.disk.size_gb > temp:
        yield loc.error(
            (*base, "disk", "size_gb"),
            f"an Ephemeral OS disk lives on the VM's temporary disk: {temp} GiB on "
            f"{pool.machine_type}, less than {pool.disk.size_gb}",
            f"set size_gb to at most {temp}, or disk.type: Managed",
        )
