"""Schemas of what Terraform itself defines: meta-arguments, lifecycle, backends, built-ins."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gpuplat.conformance.schema import AttributeSchema, BlockSchema, BlockType, ProviderSchemas

_OPT = AttributeSchema(optional=True)
_REQ = AttributeSchema(required=True)
_OUT = AttributeSchema(computed=True)


def make(
    optional: Iterable[str] = (),
    required: Iterable[str] = (),
    computed: Iterable[str] = (),
    blocks: Mapping[str, BlockType] | None = None,
) -> BlockSchema:
    """Build a block schema from name lists.

    Args:
        optional: Optional attribute names.
        required: Required attribute names.
        computed: Computed-only attribute names.
        blocks: Nested block types.

    Returns:
        The schema.
    """
    attributes = dict.fromkeys(optional, _OPT)
    attributes.update(dict.fromkeys(required, _REQ))
    attributes.update(dict.fromkeys(computed, _OUT))
    return BlockSchema(attributes, dict(blocks or {}))


def _list(schema: BlockSchema, min_items: int = 0, max_items: int = 0) -> BlockType:
    return BlockType("list", schema, min_items, max_items)


_CONDITION = _list(make(required=("condition", "error_message")))
RESOURCE_LIFECYCLE = make(
    optional=("create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by"),
    blocks={"precondition": _CONDITION, "postcondition": _CONDITION},
)
DATA_LIFECYCLE = make(blocks={"precondition": _CONDITION, "postcondition": _CONDITION})

CONNECTION = make(
    optional=(
        "type", "user", "password", "host", "port", "timeout", "script_path", "private_key",
        "certificate", "agent", "agent_identity", "host_key", "target_platform", "bastion_host",
        "bastion_host_key", "bastion_port", "bastion_user", "bastion_password",
        "bastion_private_key", "bastion_certificate", "proxy_scheme", "proxy_host", "proxy_port",
        "proxy_user_name", "proxy_user_password", "https", "insecure", "use_ntlm", "cacert",
    ),
)  # fmt: skip
PROVISIONERS: dict[str, BlockSchema] = {
    "local-exec": make(
        optional=("working_dir", "interpreter", "environment", "quiet", "when", "on_failure"),
        required=("command",),
    ),
    "remote-exec": make(
        optional=("inline", "script", "scripts", "when", "on_failure"),
        blocks={"connection": _list(CONNECTION, 0, 1)},
    ),
    "file": make(
        optional=("source", "content", "when", "on_failure"),
        required=("destination",),
        blocks={"connection": _list(CONNECTION, 0, 1)},
    ),
}

DYNAMIC = make(optional=("iterator", "labels"), required=("for_each",))
"""A ``dynamic`` block's own arguments; its ``content`` block is checked as the target block."""

RESOURCE_META_ATTRIBUTES = frozenset({"count", "for_each", "depends_on", "provider"})
MODULE_META_ARGUMENTS = frozenset(
    {"source", "version", "providers", "count", "for_each", "depends_on"}
)
PROVIDER_META_ARGUMENTS = frozenset({"alias", "version"})
TOP_LEVEL_BLOCKS = frozenset(
    {
        "terraform", "provider", "resource", "data", "ephemeral", "module", "variable",
        "output", "locals", "moved", "import", "removed", "check",
    }
)  # fmt: skip

_GCS = (
    "bucket", "prefix", "credentials", "access_token", "impersonate_service_account",
    "impersonate_service_account_delegates", "encryption_key", "kms_encryption_key",
    "storage_custom_endpoint",
)  # fmt: skip
_S3 = (
    "bucket", "key", "region", "access_key", "secret_key", "token", "profile",
    "shared_credentials_files", "shared_config_files", "dynamodb_table", "dynamodb_endpoint",
    "endpoints", "encrypt", "kms_key_id", "acl", "sse_customer_key", "workspace_key_prefix",
    "use_lockfile", "use_path_style", "force_path_style", "skip_credentials_validation",
    "skip_region_validation", "skip_metadata_api_check", "skip_requesting_account_id",
    "skip_s3_checksum", "assume_role", "assume_role_with_web_identity", "role_arn",
    "session_name", "external_id", "assume_role_duration_seconds", "assume_role_policy",
    "assume_role_policy_arns", "assume_role_tags", "assume_role_transitive_tag_keys",
    "max_retries", "retry_mode", "custom_ca_bundle", "ec2_metadata_service_endpoint",
    "ec2_metadata_service_endpoint_mode", "http_proxy", "https_proxy", "no_proxy", "insecure",
    "iam_endpoint", "sts_endpoint", "sts_region", "endpoint", "allowed_account_ids",
    "forbidden_account_ids", "shared_credentials_file",
)  # fmt: skip
_AZURERM = (
    "storage_account_name", "container_name", "key", "resource_group_name", "subscription_id",
    "tenant_id", "client_id", "client_id_file_path", "client_secret", "client_secret_file_path",
    "client_certificate", "client_certificate_path", "client_certificate_password", "use_msi",
    "msi_endpoint", "use_oidc", "oidc_token", "oidc_token_file_path", "oidc_request_url",
    "oidc_request_token", "ado_pipeline_service_connection_id", "use_azuread_auth", "use_cli",
    "use_aks_workload_identity", "access_key", "sas_token", "environment", "endpoint",
    "metadata_host", "snapshot", "lookup_blob_endpoint",
)  # fmt: skip
_HTTP = (
    "address", "update_method", "lock_address", "lock_method", "unlock_address",
    "unlock_method", "username", "password", "skip_cert_verification", "retry_max",
    "retry_wait_min", "retry_wait_max", "client_ca_certificate_pem", "client_certificate_pem",
    "client_private_key_pem",
)  # fmt: skip
BACKENDS: dict[str, BlockSchema] = {
    # Required settings may come from `terraform init -backend-config`, so all are optional.
    "gcs": make(optional=_GCS),
    "s3": make(optional=_S3),
    "azurerm": make(optional=_AZURERM),
    "local": make(optional=("path", "workspace_dir")),
    "http": make(optional=_HTTP),
    "remote": make(
        optional=("hostname", "organization", "token"),
        blocks={"workspaces": _list(make(optional=("name", "prefix")), 0, 1)},
    ),
}
"""Backend arguments as documented for Terraform 1.11 (written from the docs, not a schema)."""

CLOUD = make(
    optional=("organization", "hostname", "token"),
    blocks={"workspaces": _list(make(optional=("name", "tags", "project")), 0, 1)},
)
TERRAFORM = make(optional=("required_version", "experiments"))
"""The ``terraform`` block's own arguments; its nested blocks are checked one by one."""
REQUIRED_PROVIDER_KEYS = frozenset({"source", "version", "configuration_aliases"})


def register(schemas: ProviderSchemas) -> None:
    """Add Terraform's built-in provider types (``terraform_data``, ``terraform_remote_state``).

    Args:
        schemas: The index to extend.
    """
    schemas.add_builtin(
        "resource",
        "terraform_data",
        make(optional=("input", "triggers_replace"), computed=("id", "output")),
    )
    schemas.add_builtin(
        "data",
        "terraform_remote_state",
        make(
            optional=("config", "defaults", "workspace"),
            required=("backend",),
            computed=("outputs",),
        ),
    )
