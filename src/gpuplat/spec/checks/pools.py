"""GPU node pools: shape, accelerator and count agree; sharing, capacity and placement fit."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.checks.clusters import zone_ok
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import PoolGpu, device_plugin, resolve_pool

GPU_TAINT_KEY = "nvidia.com/gpu"
MAX_RUN_DURATION = 7 * 24 * 3600
_RESERVED_PREFIXES = (
    "kubernetes.io/",
    "k8s.io/",
    "cloud.google.com/",
    "eks.amazonaws.com/",
    "kubernetes.azure.com/",
)
_EC2_RESERVATION = re.compile(r"^cr-[0-9a-f]{8,17}$")
_LABEL_NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_IMAGES = {
    "gke": ("COS_CONTAINERD", "UBUNTU_CONTAINERD"),
    "eks": (
        "AL2023_x86_64_NVIDIA",
        "AL2023_ARM_64_NVIDIA",
        "BOTTLEROCKET_x86_64_NVIDIA",
        "BOTTLEROCKET_ARM_64_NVIDIA",
    ),
    "aks": ("Ubuntu", "AzureLinux"),
}
_SHAPE_KIND: dict[str, catalog.Kind] = {"gke": "gke_shape", "eks": "eks_shape", "aks": "aks_shape"}
_DISKS = {
    "gke": (
        "pd-standard",
        "pd-balanced",
        "pd-ssd",
        "pd-extreme",
        "hyperdisk-balanced",
        "hyperdisk-extreme",
        "hyperdisk-throughput",
        "hyperdisk-ml",
    ),
    "eks": ("gp2", "gp3", "io1", "io2"),
    "aks": ("Managed", "Ephemeral"),
}


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    for i, cluster in enumerate(spec.clusters):
        for j, pool in enumerate(cluster.node_pools):
            base = ("clusters", i, "node_pools", j)
            gpu = resolve_pool(cluster, pool)
            yield from _shape(cluster, pool, gpu, base, loc)
            yield from _sharing(spec, cluster, pool, gpu, base, loc)
            yield from _capacity(cluster, pool, base, loc)
            yield from _placement(cluster, pool, base, loc)
            yield from _node_settings(spec, cluster, pool, gpu, base, loc)
            yield from _labels_taints(pool, base, loc)


def label_key_problem(key: str) -> str | None:
    """Why ``key`` is not a valid Kubernetes label/taint key, or None."""
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix)):
        return f'prefix "{prefix}" is not a DNS subdomain'
    if not _LABEL_NAME.match(name):
        return "the name part must be 1-63 letters, digits, -, _ or ., starting and ending with a letter or digit"
    return None


def label_value_problem(value: str) -> str | None:
    """Why ``value`` is not a valid Kubernetes label value, or None."""
    if value and not _LABEL_NAME.match(value):
        return "a label value is at most 63 letters, digits, -, _ or ., starting and ending with a letter or digit"
    return None


def _shape(
    cluster: Cluster, pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    cloud = cluster.cloud
    shape = gpu.shape
    mt_path = (*base, "machine_type")
    if cloud == "gke" and pool.machine_type.startswith("n1-"):
        yield from _n1(pool, base, loc)
        return
    if shape is not None and shape.gpu_model is None:
        yield loc.error(
            mt_path,
            f"{pool.machine_type} has no GPU",
            "GPU pools need a GPU shape; the CPU system pool is set under system_pool",
        )
        return
    if shape is not None:
        expected = shape.accelerator if cloud == "gke" else shape.gpu_model
        if pool.accelerator is not None and pool.accelerator.lower() not in {
            n.lower() for n in (shape.accelerator, shape.gpu_model) if n
        }:
            yield loc.error(
                (*base, "accelerator"),
                f"{pool.machine_type} comes with {expected}, not {pool.accelerator}",
                "remove accelerator (it is inferred from machine_type) or pick a machine type with that GPU",
            )
        if (
            pool.gpus_per_node is not None
            and shape.gpu_count
            and pool.gpus_per_node != shape.gpu_count
        ):
            yield loc.error(
                (*base, "gpus_per_node"),
                f"{pool.machine_type} has {shape.gpu_count} GPU{'s' if shape.gpu_count != 1 else ''} per node, not {pool.gpus_per_node}",
                "remove gpus_per_node (it is inferred) or pick another machine type",
            )
        if shape.gpu_fraction is not None:
            yield loc.warning(
                mt_path,
                f"{pool.machine_type} has a fraction of a GPU ({shape.gpu_fraction})",
                "device plugins may report it as 0 GPUs; check before relying on it",
            )
        return
    # Not in the catalog: a shape newer than the catalog, or a typo.
    close = catalog.close_matches(_SHAPE_KIND[cloud], pool.machine_type)
    if pool.accelerator is None or pool.gpus_per_node is None:
        hint = f'did you mean "{close[0]}"?' if close else None
        yield loc.error(
            mt_path,
            f'unknown {_shape_word(cloud)} "{pool.machine_type}" (catalog as of {catalog.catalog_as_of()})',
            hint
            or "if it is newer than the catalog, set accelerator and gpus_per_node so gpuplat can check the pool",
        )
        return
    yield loc.warning(
        mt_path,
        f'{_shape_word(cloud)} "{pool.machine_type}" is not in the catalog (as of {catalog.catalog_as_of()})',
        "gpuplat trusts accelerator and gpus_per_node as written",
    )
    if gpu.gpu is None:
        yield from _unknown_accelerator(cloud, pool.accelerator, (*base, "accelerator"), loc)


def _n1(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
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
        yield from _unknown_accelerator("gke", pool.accelerator, (*base, "accelerator"), loc)
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


def _unknown_accelerator(
    cloud: str, name: str, path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    close = catalog.close_matches("gke_accelerator" if cloud == "gke" else "gpu_model", name)
    what = "GKE accelerator" if cloud == "gke" else "GPU model"
    hint = f'did you mean "{close[0]}"?' if close else None
    yield loc.error(path, f'unknown {what} "{name}"', hint)


def _sharing(
    spec: Spec, cluster: Cluster, pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    sharing = pool.sharing
    path = (*base, "sharing")
    mode = sharing.mode
    if mode in ("none", "mig") and sharing.max_clients is not None:
        yield loc.error(
            (*path, "max_clients"),
            f"max_clients is for time-slicing and mps, not mode {mode}",
            "remove it, or change mode",
            at_key=True,
        )
    if mode != "mig" and sharing.profile is not None:
        what = (
            "MIG and time-slicing/MPS exclude each other here"
            if mode in ("time-slicing", "mps")
            else "it is only used with mode: mig"
        )
        yield loc.error(
            (*path, "profile"),
            f"profile is a MIG setting; {what}",
            "set mode: mig, or remove profile",
            at_key=True,
        )
    if mode in ("time-slicing", "mps"):
        top = int(catalog.feature_limit("gke_gpu_sharing_max_clients").value)
        if sharing.max_clients is None:
            yield loc.error(
                (*path, "mode"),
                f"{mode} needs max_clients",
                f"how many containers share each GPU: 2 to {top}",
            )
        elif not 2 <= sharing.max_clients <= top:
            yield loc.error(
                (*path, "max_clients"),
                f"max_clients must be between 2 and {top}, got {sharing.max_clients}",
                "1 means no sharing: use mode: none",
            )
    if mode == "mig":
        yield from _mig(spec, cluster, pool, gpu, path, loc)


def _mig(
    spec: Spec, cluster: Cluster, pool: NodePool, gpu: PoolGpu, path: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    profile = pool.sharing.profile
    model = gpu.gpu
    if model is None:
        return  # the shape/accelerator check already reported the unknown GPU
    if not model.mig_capable:
        capable = sorted(m.name for m in catalog.gpu_models() if m.mig_capable)
        yield loc.error(
            (*path, "mode"),
            f"{model.name} does not support MIG",
            f"use time-slicing or mps on {model.name}, or a MIG GPU: {', '.join(capable)}",
        )
        return
    profiles = catalog.mig_profiles(model.name)
    if profile is None:
        yield loc.error(
            (*path, "mode"), "mig needs a profile", f"{model.name} supports: {', '.join(profiles)}"
        )
    elif profile not in profiles:
        owners = sorted(
            m.name for m in catalog.gpu_models() if profile in catalog.mig_profiles(m.name)
        )
        alt = f", or use a pool of {' / '.join(owners)} for {profile}" if owners else ""
        yield loc.error(
            (*path, "profile"),
            f'node pool "{pool.name}" cannot use MIG profile {profile}',
            f"pick one of those{alt}",
            details=(f"{gpu.accelerator or model.name} supports: {', '.join(profiles)}",),
        )
    if cluster.cloud == "eks" and device_plugin(spec, cluster) != "gpu-operator":
        yield loc.error(
            (*path, "mode"),
            "MIG on EKS needs the NVIDIA GPU Operator (its MIG manager partitions the GPUs)",
            "set addons.device_plugin: gpu-operator",
        )


def _capacity(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    cap = pool.capacity
    auto = pool.autoscaling
    path = (*base, "capacity")
    cloud = cluster.cloud
    if cap.type != "reservation":
        for key in ("reservation", "reservation_project"):
            if getattr(cap, key) is not None:
                yield loc.error(
                    (*path, key),
                    f"{key} is only used with type: reservation",
                    "set type: reservation or remove it",
                    at_key=True,
                )
    elif cloud == "eks" and cap.reservation is None:
        yield loc.error(
            (*path, "reservation"),
            "an EKS reservation pool needs the capacity reservation or capacity block id",
            'e.g. reservation: "cr-0123456789abcdef0"',
        )
    if cloud == "eks":
        yield from _ec2_capacity(cluster, pool, base, loc)
    elif cap.block:
        yield loc.error((*path, "block"), "block is an EKS setting", "remove it", at_key=True)
    if cap.reservation_project is not None and cloud != "gke":
        yield loc.error(
            (*path, "reservation_project"),
            "reservation_project is a GKE setting",
            "remove it",
            at_key=True,
        )
    if cap.max_run_duration is not None and cap.type != "flex-start":
        yield loc.error(
            (*path, "max_run_duration"),
            "max_run_duration is only used with type: flex-start",
            "remove it, or set type: flex-start",
            at_key=True,
        )
    if cap.type in ("flex-start", "queued"):
        if cloud != "gke":
            alt = (
                "use type: reservation with an EC2 capacity block"
                if cloud == "eks"
                else "use on-demand or spot"
            )
            yield loc.error((*path, "type"), f"{cap.type} is a GKE capacity type", alt)
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
    if cap.max_run_duration is not None and cap.max_run_duration > MAX_RUN_DURATION:
        yield loc.error(
            (*path, "max_run_duration"),
            "max_run_duration is at most 7d",
            "flex-start nodes run for up to 7 days",
        )
    if auto.min_nodes > auto.max_nodes:
        yield loc.error(
            (*base, "autoscaling", "min_nodes"),
            f"min_nodes ({auto.min_nodes}) is more than max_nodes ({auto.max_nodes})",
            "raise max_nodes or lower min_nodes",
        )
    elif auto.max_nodes == 0:
        yield loc.warning(
            (*base, "autoscaling", "max_nodes"),
            f'pool "{pool.name}" can never have a node (max_nodes: 0)',
            "raise max_nodes, or remove the pool",
        )
    if cloud != "gke":
        for key in ("location_policy", "per_zone"):
            if getattr(auto, key) not in (None, False):
                yield loc.error(
                    (*base, "autoscaling", key),
                    f"{key} is a GKE autoscaling setting",
                    "remove it",
                    at_key=True,
                )


def _ec2_capacity(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """EC2 capacity reservations and Capacity Blocks for ML."""
    cap = pool.capacity
    path = (*base, "capacity")
    if cap.block and cap.type != "reservation":
        yield loc.error(
            (*path, "block"),
            "block: true describes a reservation, but the pool's type is " + cap.type,
            "set type: reservation and the capacity block id under reservation",
        )
    if cap.type != "reservation" or cap.reservation is None:
        return
    if not _EC2_RESERVATION.match(cap.reservation):
        yield loc.error(
            (*path, "reservation"),
            f'"{cap.reservation}" is not an EC2 capacity reservation id',
            "capacity reservations and capacity blocks have ids like cr-0123456789abcdef0",
        )
    zones = pool.zones if pool.zones is not None else cluster.zones
    if len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set"
        yield loc.error(
            (*base, "zones") if pool.zones is not None else (*path, "reservation"),
            f"an EC2 capacity reservation is in one availability zone; pool has {have}",
            "set the pool's zones to the reservation's zone",
        )
    if cap.block and pool.autoscaling.min_nodes > 0:
        yield loc.warning(
            (*base, "autoscaling", "min_nodes"),
            f"capacity block nodes run only while the block is active; min_nodes "
            f"{pool.autoscaling.min_nodes} keeps the node group launching outside it",
            "set min_nodes: 0 and let the autoscaler add nodes while the block is active",
        )


def _placement(
    cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    zones = pool.zones if pool.zones is not None else cluster.zones
    for z, zone in enumerate(pool.zones or ()):
        if not zone_ok(cluster.cloud, cluster.region, zone):
            yield loc.error((*base, "zones", z), f'zone "{zone}" is not in region {cluster.region}')
        elif (
            cluster.cloud == "eks"
            and cluster.network.vpc_cidr is not None
            and cluster.zones
            and zone not in cluster.zones
        ):
            yield loc.error(
                (*base, "zones", z),
                f'zone "{zone}" has no subnet in the new VPC of cluster "{cluster.name}"',
                f"use one of the cluster's zones ({', '.join(cluster.zones)}), or add it there",
            )
    if pool.placement.compact and len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set"
        yield loc.error(
            (*base, "placement", "compact"),
            f"compact placement keeps nodes in one zone; pool has {have}",
            "set the pool's zones to exactly one zone",
        )
    if pool.placement.policy is not None:
        if cluster.cloud != "gke":
            yield loc.error(
                (*base, "placement", "policy"),
                "placement.policy is a GKE setting",
                "remove it",
                at_key=True,
            )
        elif not pool.placement.compact:
            yield loc.error(
                (*base, "placement", "policy"),
                "placement.policy needs compact: true",
                "set placement.compact: true",
            )


def _node_settings(
    spec: Spec, cluster: Cluster, pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    cloud = cluster.cloud
    if pool.image is not None and pool.image not in _IMAGES[cloud]:
        yield loc.error(
            (*base, "image"),
            f'"{pool.image}" is not a {cloud.upper()} GPU node image gpuplat supports',
            f"use one of: {', '.join(_IMAGES[cloud])}",
        )
    if pool.image is not None and cloud == "eks" and gpu.shape is not None:
        arm = gpu.shape.arch == "arm64"
        if arm != ("ARM_64" in pool.image):
            yield loc.error(
                (*base, "image"),
                f"{pool.image} does not match {pool.machine_type} ({gpu.shape.arch})",
                "pick the AMI type of the instance's architecture",
            )
    if pool.disk.type is not None and pool.disk.type not in _DISKS[cloud]:
        yield loc.error(
            (*base, "disk", "type"),
            f'"{pool.disk.type}" is not a {cloud.upper()} disk type',
            f"use one of: {', '.join(_DISKS[cloud])}",
        )
    if pool.efa:
        if cloud != "eks":
            yield loc.error((*base, "efa"), "efa is an EKS setting", "remove it", at_key=True)
        elif gpu.shape is not None and not gpu.shape.efa:
            yield loc.error(
                (*base, "efa"),
                f"{pool.machine_type} does not support EFA",
                "use p4d/p5/g6e-class instances for EFA, or remove efa",
            )
    if cloud == "eks" and pool.driver.install == "none" and pool.image is not None:
        yield loc.error(
            (*base, "image"),
            f"{pool.image} ships the NVIDIA driver, and driver.install is none",
            "remove image: with driver.install: none the nodes get the standard AL2023 AMI "
            "and the GPU Operator installs the driver; or set driver.install: managed",
        )
    plugin = device_plugin(spec, cluster)
    if pool.driver.install == "none" and plugin not in ("gpu-operator", "dra"):
        yield loc.error(
            (*base, "driver", "install"),
            "with driver.install: none nothing installs the NVIDIA driver",
            "set addons.device_plugin: gpu-operator (it installs the driver), or driver.install: managed",
        )
    image = pool.image or "COS_CONTAINERD"
    if cloud == "gke" and pool.driver.install == "none" and image == "COS_CONTAINERD":
        yield loc.error(
            (*base, "driver", "install"),
            "on COS nodes only GKE can install the NVIDIA driver; the GPU Operator cannot",
            "set image: UBUNTU_CONTAINERD on this pool, or driver.install: managed",
        )
    if plugin == "dra" and cloud == "gke" and pool.driver.install == "managed":
        yield loc.error(
            (*base, "driver", "install"),
            "GKE pools for DRA must not auto-install the GPU driver",
            "set driver.install: none; gpuplat's platform stage installs the driver and the NVIDIA DRA driver",
        )


def _labels_taints(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    for key, value in pool.labels.items():
        problem = label_key_problem(key)
        if problem:
            yield loc.error(
                (*base, "labels", key), f'label key "{key}" is not valid: {problem}', at_key=True
            )
        elif key.startswith(_RESERVED_PREFIXES):
            yield loc.error(
                (*base, "labels", key),
                f'label "{key}" uses a prefix reserved for Kubernetes and the cloud',
                "gpuplat sets the GPU labels itself; use your own prefix",
                at_key=True,
            )
        vproblem = label_value_problem(value)
        if vproblem:
            yield loc.error(
                (*base, "labels", key), f'label value "{value}" is not valid: {vproblem}'
            )
    for t, taint in enumerate(pool.taints):
        problem = label_key_problem(taint.key)
        if problem:
            yield loc.error(
                (*base, "taints", t, "key"), f'taint key "{taint.key}" is not valid: {problem}'
            )
        vproblem = label_value_problem(taint.value)
        if vproblem:
            yield loc.error(
                (*base, "taints", t, "value"),
                f'taint value "{taint.value}" is not valid: {vproblem}',
            )
        if taint.key == GPU_TAINT_KEY and taint.effect == "NoSchedule":
            yield loc.warning(
                (*base, "taints", t),
                f"the {GPU_TAINT_KEY}:NoSchedule taint is always added",
                "remove this entry",
            )


def _counts(counts: tuple[int, ...] | None) -> str:
    return ", ".join(str(c) for c in counts) if counts else "?"


def _shape_word(cloud: str) -> str:
    return {"gke": "GCE machine type", "eks": "EC2 instance type", "aks": "Azure VM size"}[cloud]
