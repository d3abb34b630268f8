"""The remote-state backend block of each root: one state per environment, cluster and stage.

A cluster's state lives in its own backend when the spec gives it one (so one cloud's roots need
only that cloud's credentials), else in its environment's.
"""

from __future__ import annotations

from gpuplat.render.naming import DOOR_DEPTH, ROOT_DEPTH, door_folder, to_project
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Backend, Cluster


def cluster_backend(env: EnvSpec, cluster: Cluster) -> Backend:
    """The backend that holds a cluster's states."""
    return cluster.backend if cluster.backend is not None else env.env.backend


def state_prefix(env: EnvSpec, cluster: Cluster) -> str:
    """Path prefix of a cluster's states: its backend's prefix (or ``<project>/<env>``) and
    the cluster's name."""
    backend = cluster_backend(env, cluster)
    base = (backend.prefix or f"{env.spec.project}/{env.name}").strip("/")
    return f"{base}/{cluster.name}"


def backend_block(
    env: EnvSpec, cluster: Cluster, stage: str, depth: int = ROOT_DEPTH
) -> dict[str, object]:
    """``{"type": ..., "settings": {...}}`` for the ``backend`` block of one root (or of a
    ``terraform_remote_state`` reading it from a root ``depth`` folders below the project)."""
    local = f"{to_project(depth)}/{local_state(env.name, cluster.name, stage)}"
    return _block(cluster_backend(env, cluster), state_prefix(env, cluster), stage, local)


def door_backend_block(env: EnvSpec, workload: str) -> dict[str, object]:
    """The backend of a workload's front-door root: the environment's, beside the clusters'
    states (``<prefix>/door-<workload>/door``), since the door belongs to no one cluster."""
    backend = env.env.backend
    base = (backend.prefix or f"{env.spec.project}/{env.name}").strip("/")
    folder = door_folder(workload)
    local = f"{to_project(DOOR_DEPTH)}/{local_state(env.name, folder, 'door')}"
    return _block(backend, f"{base}/{folder}", "door", local)


def legacy_backend_block(env: EnvSpec, stage: str, project: str) -> dict[str, object]:
    """Where the old layout kept a stage's state: one root per environment and stage, holding
    every cluster (``<prefix>/<stage>`` in the environment's backend).

    Args:
        env: The environment.
        stage: The stage.
        project: The project folder, for the path of a local state.
    """
    backend = env.env.backend
    base = (backend.prefix or f"{env.spec.project}/{env.name}").strip("/")
    local = f"{project}/.gpuplat/state/{env.name}/{stage}.tfstate"
    return _block(backend, base, stage, local)


def _block(backend: Backend, prefix: str, stage: str, local: str) -> dict[str, object]:
    settings: dict[str, object]
    if backend.type == "gcs":
        settings = {"bucket": backend.bucket, "prefix": f"{prefix}/{stage}"}
    elif backend.type == "s3":
        settings = {
            "bucket": backend.bucket,
            "key": f"{prefix}/{stage}/terraform.tfstate",
            "region": backend.region,
            "encrypt": True,
            # S3-native locking (Terraform >= 1.10): no DynamoDB table to create or pay for.
            "use_lockfile": True,
        }
        if backend.endpoint is not None:
            # An S3-compatible store or an emulator: it has no STS, no account and no
            # instance metadata, and often no support for the newer checksum headers.
            settings["endpoints"] = {"s3": backend.endpoint}
            settings["use_path_style"] = True
            settings["skip_credentials_validation"] = True
            settings["skip_requesting_account_id"] = True
            settings["skip_metadata_api_check"] = True
            settings["skip_s3_checksum"] = True
    elif backend.type == "azurerm":
        settings = {
            "resource_group_name": backend.resource_group,
            "storage_account_name": backend.storage_account,
            "container_name": backend.container,
            "key": f"{prefix}/{stage}.tfstate",
            "use_azuread_auth": True,
        }
    else:
        # Local state lives outside the rendered tree, so a render can never touch it.
        settings = {"path": local}
    return {"type": backend.type, "settings": settings}


def local_state(env: str, cluster: str, stage: str) -> str:
    """Project-relative path of a local state: outside the rendered tree, never touched by a
    render."""
    return f".gpuplat/state/{env}/{cluster}/{stage}.tfstate"
