"""Checks of an EKS node group that follow from how EC2 places and EKS runs GPU instances:
EFA in one zone, reserved capacity and placement groups, equivalent spot instance types, and
what a Bottlerocket NVIDIA AMI can share."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import single_capacity
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool
from gpuplat.spec.resolve import PoolGpu
from gpuplat.targets.eks.node import bottlerocket


def check(
    cluster: Cluster, pool: NodePool, gpu: PoolGpu, plugin: str, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Every node-group rule below, for one pool."""
    yield from _efa(cluster, pool, gpu, base, loc)
    yield from _placement(pool, base, loc)
    yield from _extra_types(pool, gpu, base, loc)
    yield from _bottlerocket(pool, plugin, base, loc)


def _efa(
    cluster: Cluster, pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    # EFA traffic does not cross availability zones (EC2 EFA docs), and a node group spanning
    # zones puts half its nodes out of reach of the other half.
    if not pool.efa or (gpu.shape is not None and not gpu.shape.efa):
        return  # an instance type without EFA is reported as such
    zones = pool.zones if pool.zones is not None else cluster.zones
    if len(zones) != 1:
        have = f"{len(zones)} zones" if zones else "no zone set, so every zone of the cluster"
        yield loc.error(
            (*base, "zones") if pool.zones is not None else (*base, "efa"),
            f'EFA node group "{pool.name}" must be in one availability zone; it has {have}',
            "EFA does not cross zones: set the pool's zones to one zone (the one its "
            "reservation or most of its capacity is in), and placement.compact: true unless "
            "the capacity is reserved",
        )


def _placement(pool: NodePool, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    cap = single_capacity(pool)
    if cap is None:
        return  # a ladder: its rungs are checked by the EKS target's check_ladder
    if not pool.placement.compact or cap.type != "reservation":
        return
    what = "a Capacity Block" if cap.block else "a targeted capacity reservation"
    yield loc.error(
        (*base, "placement", "compact"),
        f"placement.compact creates a new cluster placement group, and the pool uses {what} "
        "that was not made in it",
        "EC2 launches reserved instances only into the placement group the reservation was "
        "made in (a Capacity Block's instances are already placed close together): remove "
        "placement.compact",
        related=[((*base, "capacity", "reservation"), "the reservation")],
    )


def _extra_types(pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    if not pool.extra_machine_types:
        return
    path = (*base, "extra_machine_types")
    if (cap := single_capacity(pool)) is not None and cap.type != "spot":
        yield loc.error(
            path,
            f"extra_machine_types are for spot pools; this pool is {cap.type}",
            "on-demand and reserved capacity is of the one machine_type: remove "
            "extra_machine_types, or set capacity.type: spot",
        )
        return
    first = gpu.shape
    if first is None:
        yield loc.error(
            path,
            f"{pool.machine_type} is not in gpuplat's catalog, so its equivalents cannot be checked",
            "use a machine_type the catalog knows, or remove extra_machine_types",
        )
        return
    seen = {pool.machine_type}
    for k, name in enumerate(pool.extra_machine_types):
        at = (*path, k)
        if name in seen:
            yield loc.error(
                at, f"{name} is listed twice (or is the machine_type)", "list each once"
            )
            continue
        seen.add(name)
        other = catalog.shape("eks", name)
        if other is None:
            yield loc.error(
                at,
                f"{name} is not an EC2 GPU instance type in gpuplat's catalog",
                "list EC2 types from gpuplat's catalog (src/gpuplat/catalog/data/ec2.yaml)",
            )
            continue
        same_gpus = (other.gpu_model, other.gpu_count) == (first.gpu_model, first.gpu_count)
        if not same_gpus:
            yield loc.error(
                at,
                f"{name} has {other.gpu_count}x {other.gpu_model}; {pool.machine_type} has "
                f"{first.gpu_count}x {first.gpu_model}",
                "every type of a node group must have the same GPU model and count: the "
                "autoscaler and the workloads' GPU requests assume one",
            )
        elif other.arch != first.arch:
            yield loc.error(
                at,
                f"{name} is {other.arch}, {pool.machine_type} is {first.arch}",
                "one node group runs one AMI type: list types of the same architecture",
            )
        elif other.vcpus < first.vcpus or other.memory_gib < first.memory_gib:
            yield loc.error(
                at,
                f"{name} ({other.vcpus} vCPU, {other.memory_gib:g} GiB) is smaller than "
                f"{pool.machine_type} ({first.vcpus} vCPU, {first.memory_gib:g} GiB)",
                "replica requests and the autoscaler's template are sized from machine_type: "
                "list types at least as large",
            )


def _bottlerocket(pool: NodePool, plugin: str, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    if not bottlerocket(pool):
        return
    if plugin in ("gpu-operator", "dra"):
        yield loc.error(
            (*base, "image"),
            f"{pool.image} runs its own NVIDIA device plugin, and addons.device_plugin is {plugin}",
            "two device plugins would both register nvidia.com/gpu: use an AL2023 image for "
            "this pool, or addons.device_plugin: nvidia-device-plugin",
        )
    if pool.sharing.mode in ("mps", "mig"):
        yield loc.error(
            (*base, "sharing", "mode"),
            f"gpuplat renders sharing on Bottlerocket through its device-plugin settings, "
            f"which it does for time-slicing only, not {pool.sharing.mode}",
            "use time-slicing on this pool, or an AL2023 image (the Helm device plugin "
            "handles MPS; MIG needs the GPU Operator)",
        )
