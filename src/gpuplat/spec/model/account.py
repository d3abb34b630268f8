"""Cloud accounts of a cluster: the GCP project, the AWS account, the Azure subscription and who
reaches an AKS cluster's API."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class GcpAccount(SpecModel):
    """Google Cloud identifiers."""

    project: str = Field(description="GCP project id that owns the cluster.")


class AwsAccount(SpecModel):
    """AWS identifiers."""

    account_id: str | None = Field(
        None, description="12-digit AWS account id; when set, Terraform refuses other accounts."
    )
    endpoint: str | None = Field(
        None,
        description="One URL for every AWS API the infra stage calls, for an emulator such as "
        "LocalStack or moto (e.g. http://localhost:4566). Credentials still come from the "
        "environment.",
    )
    admins: list[str] = Field(
        default_factory=list,
        description="IAM role or user ARNs given cluster-admin through EKS access entries "
        "(the identity that creates the cluster always is).",
    )
    kms_key_arn: str | None = Field(
        None,
        description="KMS key ARN that envelope-encrypts Kubernetes secrets. Default: EKS's own "
        "encryption at rest.",
    )
    ssm_access: bool = Field(
        False,
        description="Attach AmazonSSMManagedInstanceCore to the node role, so nodes can be "
        "reached with Session Manager for debugging. Off: the nodes' role has no SSM access.",
    )


class AksMaintenance(SpecModel):
    """AKS's weekly window for automatic upgrades of the control plane and the node images."""

    day_of_week: Literal[
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
    ] = Field("Sunday", description="Day the window opens.")
    start_time: str = Field(
        "02:00", pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM it opens."
    )
    utc_offset: str = Field(
        "+00:00",
        pattern=r"^[+-]([01][0-9]|2[0-3]):[0-5][0-9]$",
        description="Offset of start_time from UTC, e.g. -05:00.",
    )
    duration_hours: int = Field(
        4, ge=4, le=24, description="Hours the window stays open (AKS's minimum is 4)."
    )


class AzureAccount(SpecModel):
    """Azure identifiers, who reaches an AKS cluster's API, and its control plane's tier and
    upgrades."""

    subscription_id: str = Field(description="Azure subscription id (a GUID).")
    resource_group: str = Field(
        description="Existing resource group that holds the cluster (and, by default, the "
        "user-assigned identities of its workloads)."
    )
    admins: list[str] = Field(
        default_factory=list,
        description="Object ids (GUIDs) of Microsoft Entra groups given cluster-admin. With "
        "local accounts off (protected environments) nobody else reaches the API unless an "
        "Azure role grants it.",
    )
    deployer_admin: bool = Field(
        True,
        description="Give the identity that applies the infra stage (your `az login`, or CI's "
        "service principal) the Azure Kubernetes Service RBAC Cluster Admin role on the "
        "cluster, so the platform and serving stages, which reach the API as that identity "
        "through kubelogin, are authorized. Writing the role assignment needs Owner or User "
        "Access Administrator; false: only the admins groups reach the API (then admins must "
        "not be empty).",
    )
    sku_tier: Literal["Free", "Standard", "Premium"] = Field(
        "Free",
        description="AKS control-plane tier: Free (no uptime SLA; what gpuplat's cost model "
        "prices), Standard (financially backed SLA, for production) or Premium (Standard plus "
        "long-term support of a minor).",
    )
    upgrade_channel: Literal["patch", "stable", "rapid", "node-image"] = Field(
        "patch",
        description="AKS automatic upgrade channel of the cluster: patch (newest patch of the "
        "minor), stable, rapid or node-image.",
    )
    node_os_upgrade_channel: Literal["None", "Unmanaged", "SecurityPatch", "NodeImage"] = Field(
        "NodeImage",
        description="How AKS updates the nodes' OS: NodeImage (a new node image weekly, which "
        "reimages GPU nodes in the maintenance window), SecurityPatch, Unmanaged or None.",
    )
    maintenance: AksMaintenance = Field(
        default_factory=AksMaintenance,
        description="Weekly window in which AKS applies both channels' upgrades.",
    )
