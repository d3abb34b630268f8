"""An infracost usage file with the node counts gpuplat knows.

infracost prices a GKE pool from its node count fields, so a pool that scales to zero costs 0
there and its ceiling is never seen. Its usage file can set the count per resource address; the
keys used here are the ones infracost's resources read (source ``infracost_usage_keys``):

- ``google_container_node_pool``: ``nodes``, per zone (infracost multiplies by the zones);
- ``aws_eks_node_group``: ``instances``;
- ``azurerm_kubernetes_cluster_node_pool``: ``nodes``; the AKS system pool is the cluster's
  default node pool: ``default_node_pool.nodes`` of ``azurerm_kubernetes_cluster``.
"""

from __future__ import annotations

import json

from gpuplat.cost.estimate import LevelName
from gpuplat.cost.money import HOURS_PER_MONTH
from gpuplat.render.naming import module_label
from gpuplat.spec.model import Spec
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
        "# GKE counts are per zone, rounded up: infracost multiplies them by the pool's zones.",
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
        zones = len(cluster.zones) if per_zone and cluster.zones else 1
        system_address, system_key = cloud.infracost_system or (f"{resource}.system", (key,))
        entries.append(
            (
                f"module.{module_label('cluster', cluster.name)}.{system_address}",
                system_key,
                _count(per_zone, system_nodes, zones),
                f"system pool of {cluster.name}: {system_nodes} nodes",
            )
        )
        for pool in cluster.node_pools:
            low, high = pool_node_bounds(cluster, pool)
            nodes = high if level == "ceiling" else low
            zones = pool_zone_count(cluster, pool) if per_zone else 1
            where = f" over {zones} zone{'s' if zones != 1 else ''}" if per_zone else ""
            entries.append(
                (
                    f"module.{module_label('pool', cluster.name, pool.name)}.{resource}.this",
                    (key,),
                    _count(per_zone, nodes, zones),
                    f"{cluster.name}/{pool.name}: {nodes} nodes{where}",
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


def _count(per_zone: bool, nodes: int, zones: int) -> int:
    if not per_zone:
        return nodes
    return -(-nodes // max(zones, 1))
