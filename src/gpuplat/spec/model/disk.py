"""The disks of a pool's nodes: the boot disk and GKE's secondary boot disks."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class Disk(SpecModel):
    """Boot disk of each node. GPU images and model weights are large: size it generously."""

    size_gb: int = Field(200, ge=10, description="Boot disk size in GB.")
    type: str | None = Field(
        None,
        description="Disk type: GKE pd-balanced / pd-ssd / hyperdisk-balanced, EBS gp3 / io2, "
        "AKS Managed / Ephemeral (on the VM's temporary disk). Default: the cloud's balanced "
        "SSD (AKS: Managed).",
    )
    local_ssd_count: int | None = Field(
        None,
        ge=1,
        description="GKE: local NVMe SSDs (375 GB each) that hold the node's ephemeral storage "
        "(emptyDirs, container layers, Cloud Storage FUSE file caches) instead of the boot "
        "disk. Machine types that come with local SSDs take exactly their own count "
        "(a3-highgpu-8g 16, a3-ultragpu-8g 32). Changing it replaces the pool's nodes.",
    )


class SecondaryBootDisk(SpecModel):
    """A disk GKE creates beside each node's boot disk from a disk image you built beforehand."""

    disk_image: str = Field(
        description="The Compute Engine disk image: projects/<project>/global/images/<name> "
        "(or global/images/<name> in the cluster's project)."
    )
    mode: Literal["container-image-cache", "data"] = Field(
        "container-image-cache",
        description="container-image-cache: containerd reads the images preloaded on it, so a "
        "new node does not pull them; data: the disk is only attached (mounted for pods by "
        "you).",
    )
