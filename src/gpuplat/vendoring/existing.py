"""Module calls that attach pools to a cluster the repository already has.

Without a cluster module call, the pools' calls read the cluster through the cloud's data
source, looked up by the same values the cluster module would have been given (its name, and
its project and location on GKE, its resource group on AKS), and every output of the cluster
module the calls use is replaced by the data source's attribute that holds it:

* GKE, ``data "google_container_cluster"``: name, location, project; the nodes' service account
  and network tags are those of the cluster's ``node_config``, which the GKE API fills with the
  first node pool's configuration (Cluster.nodeConfig, GKE API reference; the provider's
  ``flattenNodeConfig`` in resource_container_cluster.go), so GPU pools run as the cluster's
  other nodes do and its firewall rules reach them.
* EKS, ``data "aws_eks_cluster"``: name, ``version``, ``vpc_config[0].subnet_ids``. The nodes' IAM
  role is not part of a cluster (data_source_eks_cluster.go has none): the user names it.
* AKS, ``data "azurerm_kubernetes_cluster"``: ``id``, ``kubernetes_version``, ``oidc_issuer_url``
  and the first agent pool's ``vnet_subnet_id`` (empty on the virtual network AKS created).

What the cluster module itself held (on EKS the weights-reading Pod Identity roles, on every
cloud the cluster's own settings) stays with whoever manages the cluster.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gpuplat.errors import GpuplatError
from gpuplat.hcl.writer import quote
from gpuplat.render.naming import module_label
from gpuplat.spec.model import Cluster


@dataclass(frozen=True)
class Existing:
    """A cluster the repository has: the calls read it instead of creating it."""

    node_role: str | None = None
    """The IAM role ARN of the EKS nodes (the EKS cluster does not expose one)."""


@dataclass(frozen=True)
class _Kind:
    data_type: str
    keys: tuple[str, ...]
    """Arguments of the cluster module call that look the cluster up."""
    outputs: Mapping[str, str]
    """Cluster module output -> the expression that gives it, ``{d}`` the data source."""
    dropped: str
    """What the cluster module held that the calls no longer write."""


KINDS: Mapping[str, _Kind] = {
    "gke": _Kind(
        "google_container_cluster",
        ("name", "location", "project"),
        {
            "name": "{d}.name",
            "location": "{d}.location",
            "project": "{d}.project",
            "node_service_account": "{d}.node_config[0].service_account",
            "node_tag": "{d}.node_config[0].tags",
        },
        "the cluster's settings",
    ),
    "eks": _Kind(
        "aws_eks_cluster",
        ("name",),
        {
            "name": "{d}.name",
            "kubernetes_version": "{d}.version",
            "subnet_ids": "tolist({d}.vpc_config[0].subnet_ids)",
            "node_role_arn": "{role}",
        },
        "the cluster's settings, its VPC, the workloads' weights-reading Pod Identity roles",
    ),
    "aks": _Kind(
        "azurerm_kubernetes_cluster",
        ("name", "resource_group_name"),
        {
            "id": "{d}.id",
            "kubernetes_version": "{d}.kubernetes_version",
            "oidc_issuer_url": "{d}.oidc_issuer_url",
            "node_subnet_id": "{d}.agent_pool_profile[0].vnet_subnet_id",
        },
        "the cluster's settings",
    ),
}

_LITERAL = re.compile(r'^  (?P<key>[a-z_]+)\s*=\s*(?P<value>"[^"]*")\s*$')


def attach(cluster: Cluster, cluster_call: str, body: str, existing: Existing) -> str:
    """``body`` (the other calls) reading the existing cluster, after its data source.

    Args:
        cluster: The spec's cluster.
        cluster_call: The text of the cluster module call gpuplat would have written.
        body: The other module calls, which use the cluster module's outputs.
        existing: What the user said about the existing cluster.

    Raises:
        GpuplatError: The EKS nodes' role is not given, or a call uses an output that an
            existing cluster cannot give.
    """
    kind = KINDS[cluster.cloud]
    label = module_label("cluster", cluster.name)
    data = f"data.{kind.data_type}.{label}"
    values = {
        m["key"]: m["value"] for line in cluster_call.splitlines() if (m := _LITERAL.match(line))
    }
    lookup = [f"  {key} = {values[key]}" for key in kind.keys if key in values]
    role = quote(existing.node_role) if existing.node_role else None

    def replace(match: re.Match[str]) -> str:
        output = match.group("output")
        expression = kind.outputs.get(output)
        if expression is None:
            raise GpuplatError(
                f"cluster {cluster.name}: the module calls use its `{output}`, which an existing "
                f"{cluster.cloud.upper()} cluster's data source does not give",
                hint="write the calls without --existing-cluster and remove the cluster call "
                "by hand, or attach the pools yourself",
            )
        if role is None and "{role}" in expression:
            raise GpuplatError(
                f"cluster {cluster.name}: an existing EKS cluster does not say its nodes' IAM role",
                hint="name it: --node-role arn:aws:iam::ACCOUNT:role/NAME (the role your other "
                "node groups use)",
            )
        return expression.format(d=data, role=role)

    # The list around the GKE node tag becomes the node_config's list of tags.
    text = body.replace(f"[module.{label}.node_tag]", f"module.{label}.node_tag")
    text = re.sub(rf"module\.{re.escape(label)}\.(?P<output>\w+)", replace, text)
    network = module_label("network", cluster.name)
    if f"module.{network}." in text:
        raise GpuplatError(
            f"cluster {cluster.name}: the module calls use its network module's outputs",
            hint="attach the pools yourself",
        )
    header = [
        f"# Existing {cluster.cloud.upper()} cluster {cluster.name}, read here, not created: the "
        "calls below join it.",
        f"# Not written here: {kind.dropped}.",
        f'data "{kind.data_type}" "{label}" {{',
        *lookup,
        "}",
    ]
    return "\n".join(header) + "\n\n" + text
