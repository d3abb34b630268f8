"""Node pool nodes: image, disk, EFA and driver settings; labels and taints."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import PoolGpu, device_plugin

GPU_TAINT_KEY = "nvidia.com/gpu"
_RESERVED_PREFIXES = (
    "kubernetes.io/",
    "k8s.io/",
    "cloud.google.com/",
    "eks.amazonaws.com/",
    "kubernetes.azure.com/",
)
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
