"""What the platform and serving stages need to reach each cluster's Kubernetes API."""

from __future__ import annotations

from gpuplat.render.backend import backend_block
from gpuplat.render.naming import module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Cluster


def provider_alias(cluster: str) -> str:
    """Alias of the kubernetes and helm providers configured for one cluster."""
    return module_label("cluster", cluster)


def cluster_access(cluster: Cluster) -> dict[str, object]:
    """How the kubernetes/helm providers of a cluster authenticate."""
    access: dict[str, object] = {
        "name": cluster.name,
        "cloud": cluster.cloud,
        "alias": provider_alias(cluster.name),
    }
    if cluster.cloud == "eks":
        # A short-lived token from the AWS CLI, never a token stored in state.
        access["exec"] = {
            "api_version": "client.authentication.k8s.io/v1beta1",
            "command": "aws",
            "args": [
                "eks",
                "get-token",
                "--cluster-name",
                cluster.name,
                "--region",
                cluster.region,
            ],
        }
    return access


def infra_state(env: EnvSpec) -> dict[str, object]:
    """The ``terraform_remote_state`` of the infra stage: same backend, infra's state."""
    return backend_block(env, "infra")
