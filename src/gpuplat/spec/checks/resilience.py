"""Where one failure takes a protected environment's workload down: every replica on one node
(any node upgrade, repair or preemption stops the service) or in one zone."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets import pool_node_bounds


def check(spec: Spec, env_name: str, loc: Locator) -> Iterator[Diagnostic]:
    """Warn, in a protected environment, when one node or one zone holds every replica of a
    workload on a cluster.

    Node pools upgrade and repair one node at a time at best (surge 0 / unavailable 1 when no
    spare GPU exists): with a single node that is the whole service, and a zone outage takes a
    single-zone service with it.
    """
    env = next((e for e in spec.environments if e.name == env_name), None)
    if env is None or not env.is_protected():
        return
    clusters = {c.name: (i, c) for i, c in enumerate(spec.clusters)}
    for workload in spec.workloads:
        if workload.replicas.max < 1:
            continue
        for name, pools in workload_pools(spec, workload).items():
            if not pools or name not in clusters:
                continue
            c_index, cluster = clusters[name]
            yield from _one_place(workload.name, env_name, c_index, cluster, pools, loc)


def _one_place(
    workload: str, env: str, c_index: int, cluster: Cluster, pools: list[NodePool], loc: Locator
) -> Iterator[Diagnostic]:
    p_index = cluster.node_pools.index(pools[0])
    path: KeyPath = ("clusters", c_index, "node_pools", p_index, "autoscaling", "max_nodes")
    most = sum(pool_node_bounds(cluster, p)[1] for p in pools)
    where = f'workload "{workload}" on cluster "{cluster.name}" of protected environment {env}'
    if most <= 1:
        yield loc.warning(
            path,
            f"one node holds every replica of {where}: every node upgrade, repair or "
            "preemption takes the service down",
            "let the pools it runs on have at least two nodes (max_nodes, and min_nodes for "
            "an always-warm service), in different zones where the cloud has them",
        )
        return
    zones = {tuple(p.zones if p.zones is not None else cluster.zones) for p in pools}
    one_zone = all(len(z) == 1 for z in zones) and len({z[0] for z in zones}) == 1
    # A GPU fabric (EFA, GPUDirect RDMA) is zonal: such pools cannot take a second zone, and a
    # second cluster elsewhere (a failover placement) is what survives a zone outage.
    if one_zone and not all(p.zonal_fabric for p in pools):
        yield loc.warning(
            path,
            f"one zone holds every replica of {where}: a zone outage takes the service down",
            "list a second zone for the pools (zones), or accept it for shapes sold in one zone "
            "only (compact placement, a zonal reservation)",
        )
