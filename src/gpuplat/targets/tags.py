"""Labels and tags on cloud resources, and taints as the GKE and EKS APIs spell them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuplat.spec.model import Cluster

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

TAINT_EFFECT = {
    "NoSchedule": "NO_SCHEDULE",
    "PreferNoSchedule": "PREFER_NO_SCHEDULE",
    "NoExecute": "NO_EXECUTE",
}
"""Kubernetes taint effects in the enum spelling of the GKE and EKS APIs."""


def gpuplat_tags(env: EnvSpec) -> dict[str, str]:
    """What every cloud resource of an environment carries to say who made it."""
    return {"managed-by": "gpuplat", "gpuplat-project": env.spec.project, "gpuplat-env": env.name}


def resource_labels(env: EnvSpec, cluster: Cluster) -> dict[str, str]:
    """Labels (tags) on every cloud resource of a cluster: the spec's plus gpuplat's own."""
    labels = dict(cluster.labels)
    labels.update(gpuplat_tags(env))
    return dict(sorted(labels.items()))
