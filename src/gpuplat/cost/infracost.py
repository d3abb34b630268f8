"""An infracost usage file with the node counts gpuplat knows.

infracost prices a GKE pool from its node count fields, so a pool that scales to zero costs 0
there and its ceiling is never seen. Its usage file can set the count per resource address; the
keys used here are the ones infracost's resources read (source ``infracost_usage_keys``):

- ``google_container_node_pool``: ``nodes``, per zone (infracost multiplies by the zones);
- ``aws_eks_node_group``: ``instances``;
- ``azurerm_kubernetes_cluster_node_pool``: ``nodes`` (AKS is not rendered yet, so none here).
"""

from __future__ import annotations

import json

from gpuplat.cost.estimate import LevelName
from gpuplat.cost.money import HOURS_PER_MONTH
from gpuplat.render.naming import module_label
from gpuplat.spec.model import Spec
from gpuplat.targets import pool_node_bounds, pool_zone_count

_RESOURCE = {"gke": "google_container_node_pool", "eks": "aws_eks_node_group"}
_KEY = {"gke": "nodes", "eks": "instances"}


def usage_file(env_name: str, spec: Spec, level: LevelName = "ceiling") -> str:
    """The usage file of one environment's infra stage, as YAML text.

    Args:
        env_name: The environment (its ``envs/<env>/infra`` root is what infracost reads).
        spec: Its merged spec.
        level: ``ceiling`` (every pool at max_nodes) or ``floor`` (at min_nodes).

    Returns:
        The file's text, deterministic, one trailing newline.
    """
    lines = [
        f"# infracost usage for envs/{env_name}/infra, written by `gpuplat cost --infracost-usage`.",
        f"# Node counts at the {level} ({'max' if level == 'ceiling' else 'min'}_nodes of every "
        "pool), so pools that scale to zero are priced as they can grow.",
        "# GKE counts are per zone, rounded up: infracost multiplies them by the pool's zones.",
        f"# Use: infracost breakdown --path envs/{env_name}/infra --usage-file <this file>",
        "version: 0.1",
        "resource_usage:",
    ]
    entries: list[tuple[str, str, int, str]] = []
    skipped: list[str] = []
    for cluster in spec.clusters:
        resource = _RESOURCE.get(cluster.cloud)
        if resource is None:
            skipped.append(cluster.name)
            continue
        key = _KEY[cluster.cloud]
        system = cluster.system_pool
        system_nodes = system.max_nodes if level == "ceiling" else system.min_nodes
        zones = len(cluster.zones) if cluster.cloud == "gke" and cluster.zones else 1
        entries.append(
            (
                f"module.{module_label('cluster', cluster.name)}.{resource}.system",
                key,
                _count(cluster.cloud, system_nodes, zones),
                f"system pool of {cluster.name}: {system_nodes} nodes",
            )
        )
        for pool in cluster.node_pools:
            low, high = pool_node_bounds(cluster, pool)
            nodes = high if level == "ceiling" else low
            zones = pool_zone_count(cluster, pool) if cluster.cloud == "gke" else 1
            where = (
                f" over {zones} zone{'s' if zones != 1 else ''}" if cluster.cloud == "gke" else ""
            )
            entries.append(
                (
                    f"module.{module_label('pool', cluster.name, pool.name)}.{resource}.this",
                    key,
                    _count(cluster.cloud, nodes, zones),
                    f"{cluster.name}/{pool.name}: {nodes} nodes{where}",
                )
            )
    for address, key, count, note in sorted(entries):
        lines.append(f"  {json.dumps(address)}:")
        lines.append(f"    {key}: {count} # {note}")
    if not entries:
        lines[-1] = "resource_usage: {}"
    lines.extend(f"# cluster {name}: AKS is not rendered yet; nothing to count" for name in skipped)
    lines.append(f"# monthly figures in infracost assume {HOURS_PER_MONTH} h, as gpuplat's do")
    return "\n".join(lines) + "\n"


def _count(cloud: str, nodes: int, zones: int) -> int:
    if cloud != "gke":
        return nodes
    return -(-nodes // max(zones, 1))
