"""What the platform and serving stages need to reach each cluster's Kubernetes API."""

from __future__ import annotations

from gpuplat.render.backend import backend_block
from gpuplat.render.naming import module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Cluster
from gpuplat.targets import target


def provider_alias(cluster: str) -> str:
    """Alias of the kubernetes and helm providers configured for one cluster."""
    return module_label("cluster", cluster)


def cluster_access(cluster: Cluster) -> dict[str, object]:
    """How the kubernetes/helm providers of a cluster authenticate (its target decides)."""
    return {
        "name": cluster.name,
        "cloud": cluster.cloud,
        "alias": provider_alias(cluster.name),
        **target(cluster.cloud).kube_auth(cluster).view(),
    }


def infra_state(env: EnvSpec, cluster: Cluster) -> dict[str, object]:
    """The ``terraform_remote_state`` of a cluster's infra root: same backend, infra's state."""
    return backend_block(env, cluster, "infra")
