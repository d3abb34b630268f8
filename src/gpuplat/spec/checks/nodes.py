"""Node pool nodes: image, disk and driver settings; labels and taints."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets import device_plugin, target

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


def node_settings(
    spec: Spec, cluster: Cluster, pool: NodePool, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """The node image and disk type the cloud offers, and someone to install the driver."""
    cloud = target(cluster.cloud)
    if pool.image is not None and pool.image not in cloud.images:
        yield loc.error(
            (*base, "image"),
            f'"{pool.image}" is not a {cloud.title} GPU node image gpuplat supports',
            f"use one of: {', '.join(cloud.images)}",
        )
    if pool.disk.type is not None and pool.disk.type not in cloud.disk_types:
        yield loc.error(
            (*base, "disk", "type"),
            f'"{pool.disk.type}" is not a {cloud.title} disk type',
            f"use one of: {', '.join(cloud.disk_types)}",
        )
    if pool.driver.install == "none" and device_plugin(spec, cluster) not in (
        "gpu-operator",
        "dra",
    ):
        yield loc.error(
            (*base, "driver", "install"),
            "with driver.install: none nothing installs the NVIDIA driver",
            "set addons.device_plugin: gpu-operator (it installs the driver), or driver.install: managed",
        )


def labels_taints(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
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
