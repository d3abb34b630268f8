"""A GKE pool's GPU-to-GPU network (GPUDirect) for multi-host groups."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class GpuDirect(SpecModel):
    """GKE: the GPU-to-GPU network of a pool whose nodes serve multi-host groups."""

    type: Literal["rdma", "tcpxo"] = Field(
        description="rdma: GPUDirect RDMA over RoCE (A3 Ultra a3-ultragpu-8g, A4 a4-highgpu-8g): "
        "an RDMA VPC with one subnet per GPU NIC, the pool's additional node networks, GKE "
        "multi-networking, the gIB NCCL plugin and the pods' RDMA interfaces. tcpxo "
        "(GPUDirect-TCPXO, A3 Mega) is not rendered yet and is refused."
    )
    cidr: str = Field(
        "192.168.128.0/18",
        description="IPv4 range split into the RDMA subnets (one per GPU NIC); it must not "
        "overlap the cluster's other networks.",
    )
