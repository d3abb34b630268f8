"""An infracost usage file with the node counts gpuplat knows.

infracost prices a GKE pool from its node count fields, so a pool that scales to zero costs 0
there and its ceiling is never seen. Its usage file can set the count per resource address; the
keys used here are the ones infracost's resources read (source ``infracost_usage_keys``):

- ``google_container_node_pool``: ``nodes``, per zone (infracost multiplies by the zones);
- ``aws_eks_node_group``: ``instances``;
- ``azurerm_kubernetes_cluster_node_pool``: ``nodes``; the AKS system pool is the cluster's
  default node pool: ``default_node_pool.nodes`` of ``azurerm_kubernetes_cluster``;
- ``google_compute_router_nat``: ``assigned_vms`` (infracost/infracost
  internal/resources/google/compute_router_nat.go), the nodes behind a Cloud NAT gpuplat renders.
"""

from __future__ import annotations

import json

from gpuplat.cost.estimate import COMMITTED, LevelName, pool_cost
from gpuplat.cost.money import HOURS_PER_MONTH
from gpuplat.render.naming import module_label
from gpuplat.spec.model import Cluster, NodePool, Spec
from gpuplat.targets import pool_node_bounds, pool_zone_count, target


def usage_file(env_name: str, spec: Spec, level: LevelName = "ceiling") -> str:
    """The usage file of one environment's infra stage, as YAML text.

    Args:
        env_name: The environment (its clusters' ``envs/<env>/<cluster>/infra`` roots are what
            infracost reads; one file serves them all, each root holds its own addresses).
        spec: Its merged spec.
        level: ``ceiling`` (every pool at max_nodes) or ``floor`` (at min_nodes).

    Returns:
        The file's text, deterministic, one trailing newline.
    """
    lines = [
        f"# infracost usage for the infra roots of {env_name} (envs/{env_name}/<cluster>/infra),",
        "# written by `gpuplat cost --infracost-usage`.",
        f"# Node counts at the {level} ({'max' if level == 'ceiling' else 'min'}_nodes of every "
        "pool), so pools that scale to zero are priced as they can grow.",
        "# GKE counts are per zone (infracost multiplies them by the pool's zones), rounded up",
        "# where the zones do not divide a total: each line says what infracost then prices.",
        f"# Use: infracost breakdown --path envs/{env_name}/<cluster>/infra --usage-file <this file>",
        "version: 0.1",
        "resource_usage:",
    ]
    entries: list[tuple[str, tuple[str, ...], int, str]] = []
    skipped: list[str] = []
    for cluster in spec.clusters:
        cloud = target(cluster.cloud)
        key = cloud.infracost_usage_key
        if key is None or not cloud.renders:
            skipped.append(cluster.name)
            continue
        resource = cloud.pool_resource
        per_zone = cloud.infracost_per_zone
        system = cluster.system_pool
        system_nodes = system.max_nodes if level == "ceiling" else system.min_nodes
        # infracost multiplies a GKE count by the zones the pool spans: the cluster's zones, or
        # a regional cluster's three when it names none (not one).
        zones = (
            (len(cluster.zones) if cluster.zones else cloud.default_zone_count(cluster))
            if per_zone
            else 1
        )
        system_address, system_key = cloud.infracost_system or (f"{resource}.system", (key,))
        entries.append(
            (
                f"module.{module_label('cluster', cluster.name)}.{system_address}",
                system_key,
                _count(per_zone, system_nodes, zones),
                _note(f"system pool of {cluster.name}", system_nodes, per_zone, zones),
            )
        )
        # What GKE creates for the minimum (the same count in every zone), not the spec's min.
        vms = system.max_nodes if level == "ceiling" else cloud.min_nodes_created(cluster, None)
        for pool in cluster.node_pools:
            for node_pool, nodes in _rung_nodes(cluster, pool, level):
                vms += nodes
                name = node_pool.name
                zones = pool_zone_count(cluster, node_pool) if per_zone else 1
                entries.append(
                    (
                        f"module.{module_label('pool', cluster.name, name)}.{resource}.this",
                        (key,),
                        _count(per_zone, nodes, zones),
                        _note(f"{cluster.name}/{name}", nodes, per_zone, zones),
                    )
                )
        if cloud.infracost_nat is not None and cloud.nat_gateways(cluster, False):
            # A NAT billed per VM using it (GKE Cloud NAT; infracost: `assigned_vms`, first
            # 32): every node of the cluster's private subnetwork.
            nat_address, nat_key = cloud.infracost_nat
            entries.append(
                (
                    f"module.{module_label('cluster', cluster.name)}.{nat_address}",
                    (nat_key,),
                    vms,
                    f"NAT of {cluster.name}: the {vms} nodes that use it",
                )
            )
    for address, keys, count, note in sorted(entries):
        lines.append(f"  {json.dumps(address)}:")
        # A nested key (AKS's default_node_pool.nodes) is one mapping per level.
        for depth, key in enumerate(keys[:-1]):
            lines.append(f"{'  ' * (depth + 2)}{key}:")
        lines.append(f"{'  ' * (len(keys) + 1)}{keys[-1]}: {count} # {note}")
    if not entries:
        lines[-1] = "resource_usage: {}"
    lines.extend(f"# cluster {name}: not rendered (its cloud has no roots yet)" for name in skipped)
    lines.append(f"# monthly figures in infracost assume {HOURS_PER_MONTH} h, as gpuplat's do")
    return "\n".join(lines) + "\n"


def _rung_nodes(cluster: Cluster, pool: NodePool, level: LevelName) -> list[tuple[NodePool, int]]:
    """(node pool, nodes) of every node pool a pool renders, as gpuplat prices them.

    A pool of one capacity type is one node pool at its min or max nodes. A ladder renders one
    node pool per rung and shares one cap: at the floor its min is on the preferred rung; at
    the ceiling the cap is on the dearest rung (as ``cost`` prices it), and a reservation or
    Capacity Block at the nodes it holds at both levels, as it is billed whether used or not.
    """
    low, high = pool_node_bounds(cluster, pool)
    rungs = target(cluster.cloud).ladder(cluster, pool).rungs
    if len(rungs) == 1:
        return [(pool, high if level == "ceiling" else low)]
    cost = pool_cost(cluster, pool, ())
    counts = {r.pool.name: 0 for r in rungs}
    held = [
        (r, rate)
        for r, rate in zip(rungs, cost.ceiling_rungs, strict=True)
        if rate.capacity in COMMITTED
    ]
    for rung, _ in held:
        counts[rung.pool.name] = pool_node_bounds(cluster, rung.pool)[1]
    others = [
        (r, rate)
        for r, rate in zip(rungs, cost.ceiling_rungs, strict=True)
        if rate.capacity not in COMMITTED
    ]
    if level == "floor":
        if rungs[0].pool.name not in {r.pool.name for r, _ in held}:
            counts[rungs[0].pool.name] = low
    elif others:
        dearest = max(others, key=lambda pair: pair[1].usd_per_hour or 0.0)[0]
        counts[dearest.pool.name] = pool_node_bounds(cluster, dearest.pool)[1]
    return [(r.pool, counts[r.pool.name]) for r in rungs]


def _note(what: str, nodes: int, per_zone: bool, zones: int) -> str:
    if not per_zone:
        return f"{what}: {nodes} nodes"
    count = _count(per_zone, nodes, zones)
    where = f"{nodes} nodes over {zones} zone{'s' if zones != 1 else ''}"
    if count * zones == nodes:
        return f"{what}: {where}"
    # infracost's count is per zone: a total that the zones do not divide is rounded up.
    return f"{what}: {where}; infracost prices {count} x {zones} = {count * zones}"


def _count(per_zone: bool, nodes: int, zones: int) -> int:
    if not per_zone:
        return nodes
    return -(-nodes // max(zones, 1))
