"""The remote-state backend block of each root: one state per environment and stage."""

from __future__ import annotations

from gpuplat.render.naming import to_project
from gpuplat.spec.load import EnvSpec


def state_prefix(env: EnvSpec) -> str:
    """Path prefix of an environment's states: the spec's, or ``<project>/<env>``."""
    backend = env.env.backend
    return (backend.prefix or f"{env.spec.project}/{env.name}").strip("/")


def backend_block(env: EnvSpec, stage: str) -> dict[str, object]:
    """``{"type": ..., "settings": {...}}`` for the ``backend`` block of a stage's root."""
    backend = env.env.backend
    prefix = state_prefix(env)
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
        settings = {"path": f"{to_project()}/.gpuplat/state/{env.name}/{stage}.tfstate"}
    return {"type": backend.type, "settings": settings}
