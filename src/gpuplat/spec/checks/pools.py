"""GPU node pools: shape, accelerator and count agree; sharing, capacity and placement fit."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.checks.capacity import MAX_RUN_DURATION, _capacity, _placement
from gpuplat.spec.checks.nodes import (
    GPU_TAINT_KEY,
    _labels_taints,
    _node_settings,
    label_key_problem,
    label_value_problem,
)
from gpuplat.spec.checks.sharing import _sharing
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import PoolGpu, resolve_pool

__all__ = ["GPU_TAINT_KEY", "MAX_RUN_DURATION", "check", "label_key_problem", "label_value_problem"]

_SHAPE_KIND: dict[str, catalog.Kind] = {"gke": "gke_shape", "eks": "eks_shape", "aks": "aks_shape"}


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


def _counts(counts: tuple[int, ...] | None) -> str:
    return ", ".join(str(c) for c in counts) if counts else "?"


def _shape_word(cloud: str) -> str:
    return {"gke": "GCE machine type", "eks": "EC2 instance type", "aks": "Azure VM size"}[cloud]
