"""Terraform state backends."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class Backend(SpecModel):
    """Where Terraform state is kept: an environment's default, or one cluster's own."""

    type: Literal["gcs", "s3", "azurerm", "local"] = Field(
        "local", description="gcs, s3, azurerm or local."
    )
    bucket: str | None = Field(None, description="gcs and s3: the state bucket.")
    prefix: str | None = Field(
        None,
        description="Path prefix inside the bucket/container. Default: <project>/<env>; each "
        "cluster's roots append /<cluster>/<stage>.",
    )
    region: str | None = Field(None, description="s3: bucket region.")
    endpoint: str | None = Field(
        None, description="s3: custom endpoint (e.g. an S3-compatible store or an emulator)."
    )
    resource_group: str | None = Field(None, description="azurerm: storage resource group.")
    storage_account: str | None = Field(None, description="azurerm: storage account name.")
    container: str | None = Field(None, description="azurerm: blob container.")
