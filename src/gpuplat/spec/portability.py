"""Which clusters of a spec can run each workload, and why the others cannot.

The answer comes from the same checks `gpuplat validate` runs: for every cluster and every GPU
pool of it, the workload is tried there alone (``clusters: [<cluster>]``, ``pool: <pool>``, its
placement's overrides kept, its role made active) and the errors the workload checks find are
the reasons. One reason the checks cannot see is added here: where the weights are read from.
An init container reads ``gs://`` with the node's Google identity and ``s3://`` with its AWS
one (workload/weights.py); on another cloud it would need credentials gpuplat does not render.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat.spec.checks import workloads
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec, Workload, WorkloadPlacement
from gpuplat.spec.resolve import resolve_pool
from gpuplat.spec.roles import OVERRIDES
from gpuplat.spec.units import GpuUnit, workload_unit

WEIGHTS_CLOUD = {"gs://": "gke", "s3://": "eks"}
"""Weight sources read with one cloud's node identity, by scheme."""


@dataclass(frozen=True)
class PoolFit:
    """The workload on one GPU pool of a cluster: the errors that stop it (none: it fits)."""

    pool: str
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class ClusterFit:
    """The workload on one cluster of the spec."""

    cluster: str
    cloud: str
    listed: bool
    """The cluster is one of the workload's ``clusters``."""
    pools: tuple[PoolFit, ...]
    reasons: tuple[str, ...] = ()
    """What stops the workload on every pool of the cluster (weights, no GPU pool)."""

    @property
    def fits(self) -> bool:
        return not self.reasons and any(not p.reasons for p in self.pools)

    def why_not(self) -> list[str]:
        """The reasons, the cluster's first, then each pool's."""
        out = list(self.reasons)
        out += [f"pool {p.pool}: {r}" for p in self.pools for r in p.reasons]
        return out


@dataclass(frozen=True)
class WorkloadFit:
    """One workload across every cluster of the spec."""

    workload: str
    gpus: int
    clusters: tuple[ClusterFit, ...]
    unit: GpuUnit | None = None
    """What ``gpus`` counts on the workload's first cluster (a MIG slice, a share of a GPU)."""


def portability(env: EnvSpec) -> list[WorkloadFit]:
    """For each workload of ``env``, which clusters can run it and why the others cannot."""
    spec = env.spec
    loc = Locator(env.tree, {})
    out = []
    for index, workload in enumerate(spec.workloads):
        fits = tuple(_cluster_fit(spec, loc, index, workload, c) for c in spec.clusters)
        unit = workload_unit(spec, workload)
        out.append(WorkloadFit(workload.name, workload.gpus, fits, unit))
    return out


def _cluster_fit(
    spec: Spec, loc: Locator, index: int, workload: Workload, cluster: Cluster
) -> ClusterFit:
    listed = cluster.name in workload.clusters
    reasons = []
    for scheme, cloud in WEIGHTS_CLOUD.items():
        if workload.model.source.startswith(scheme) and cluster.cloud != cloud:
            reasons.append(
                f"weights at {scheme} are read with the nodes' {cloud.upper()} identity, which "
                f"{cluster.cloud.upper()} nodes do not have (copy them to hf:// or https://)"
            )
    gpu_pools = [p for p in cluster.node_pools if resolve_pool(cluster, p).gpus_per_node]
    if not gpu_pools:
        reasons.append("no GPU pool")
    pools = tuple(_pool_fit(spec, loc, index, workload, cluster, p) for p in gpu_pools)
    return ClusterFit(cluster.name, cluster.cloud, listed, pools, tuple(reasons))


def _pool_fit(
    spec: Spec, loc: Locator, index: int, workload: Workload, cluster: Cluster, pool: NodePool
) -> PoolFit:
    placed = workload.placements.get(cluster.name)
    # Its overrides, without its role: the trial is the workload serving there.
    kept = {k: getattr(placed, k) for k in OVERRIDES if placed and getattr(placed, k) is not None}
    placements = {cluster.name: WorkloadPlacement(**kept)} if kept else {}
    trial = workload.model_copy(
        update={
            "clusters": [cluster.name],
            "pool": pool.name,
            "accelerator": None,
            "placements": placements,
        }
    )
    trial_spec = spec.model_copy(
        update={"workloads": [*spec.workloads[:index], trial, *spec.workloads[index + 1 :]]}
    )
    base = ("workloads", index)
    found = workloads.check(trial_spec, loc, set())
    reasons = tuple(dict.fromkeys(d.message for d in found if d.is_error and d.path[:2] == base))
    return PoolFit(pool.name, reasons)
