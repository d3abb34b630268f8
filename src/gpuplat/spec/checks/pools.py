"""GPU node pools: shape, accelerator and count agree; sharing, capacity and placement fit;
then the checks only the pool's cloud needs (its target's)."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat import catalog
from gpuplat.spec.checks import ladder
from gpuplat.spec.checks.capacity import MAX_RUN_DURATION, capacity, placement
from gpuplat.spec.checks.nodes import (
    GPU_TAINT_KEY,
    label_key_problem,
    label_value_problem,
    labels_taints,
    node_settings,
)
from gpuplat.spec.checks.sharing import sharing
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import PoolGpu, resolve_pool
from gpuplat.targets import Target, target

__all__ = ["GPU_TAINT_KEY", "MAX_RUN_DURATION", "check", "label_key_problem", "label_value_problem"]


def check(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    for i, cluster in enumerate(spec.clusters):
        yield from cluster_pools(spec, i, cluster, loc)


def cluster_pools(spec: Spec, i: int, cluster: Cluster, loc: Locator) -> Iterator[Diagnostic]:
    """The pools of one cluster (``clusters[i]``). Besides the cluster, this reads the
    add-ons and the workloads (:func:`gpuplat.spec.checks.reuse.pool_context`)."""
    cloud = target(cluster.cloud)
    for j, pool in enumerate(cluster.node_pools):
        base = ("clusters", i, "node_pools", j)
        gpu = resolve_pool(cluster, pool)
        own = cloud.check_shape(cluster, pool, base, loc)
        yield from own if own is not None else _shape(cloud, pool, gpu, base, loc)
        yield from sharing(pool, gpu, base, loc)
        yield from capacity(cluster, pool, base, loc)
        yield from ladder.check(spec, cluster, pool, base, loc)
        yield from placement(cluster, pool, base, loc)
        yield from node_settings(spec, cluster, pool, base, loc)
        yield from labels_taints(pool, base, loc)
        yield from cloud.check_pool(spec, cluster, pool, gpu, base, loc)


def _shape(
    cloud: Target, pool: NodePool, gpu: PoolGpu, base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    shape = gpu.shape
    mt_path = (*base, "machine_type")
    if shape is not None and shape.gpu_model is None:
        yield loc.error(
            mt_path,
            f"{pool.machine_type} has no GPU",
            "GPU pools need a GPU shape; the CPU system pool is set under system_pool",
        )
        return
    if shape is not None:
        expected = shape.accelerator or shape.gpu_model
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
    # Not in the catalog: another cloud's shape, a shape newer than the catalog, or a typo.
    elsewhere = _other_cloud(cloud, pool.machine_type)
    if elsewhere is not None:
        yield loc.error(mt_path, *elsewhere)
        return
    close = catalog.close_matches(cloud.shape_kind, pool.machine_type)
    if pool.accelerator is None or pool.gpus_per_node is None:
        hint = f'did you mean "{close[0]}"?' if close else None
        yield loc.error(
            mt_path,
            f'unknown {cloud.shape_word} "{pool.machine_type}" (catalog as of {catalog.catalog_as_of()})',
            hint
            or "if it is newer than the catalog, set accelerator and gpus_per_node so gpuplat can check the pool",
        )
        return
    yield loc.warning(
        mt_path,
        f'{cloud.shape_word} "{pool.machine_type}" is not in the catalog (as of {catalog.catalog_as_of()})',
        "gpuplat trusts accelerator and gpus_per_node as written",
    )
    if gpu.gpu is None:
        close = catalog.close_matches(cloud.accelerator_kind, pool.accelerator)
        yield loc.error(
            (*base, "accelerator"),
            f'unknown {cloud.accelerator_word} "{pool.accelerator}"',
            f'did you mean "{close[0]}"?' if close else None,
        )


def _other_cloud(cloud: Target, machine_type: str) -> tuple[str, str] | None:
    """(message, hint) when ``machine_type`` is a shape of another cloud ("g6.xlarge" on GKE)."""
    from gpuplat.targets import TARGETS

    for other in TARGETS.values():
        found = catalog.shape(other.cloud, machine_type) if other is not cloud else None
        if found is None:
            continue
        same = [
            s.name
            for s in catalog.shapes(cloud.cloud)
            if found.gpu_model is not None
            and s.gpu_model == found.gpu_model
            and s.gpu_count == found.gpu_count
        ][:3]
        like = f" with the same GPUs ({', '.join(same)})" if same else ""
        return (
            f'"{machine_type}" is a machine type of {other.title} ({other.shape_word}); this '
            f"cluster runs on {cloud.title}",
            f"pick one of the {cloud.shape_word}s{like}; or set cloud: {other.cloud} if the "
            f"cluster is meant to run on {other.title}",
        )
    return None
