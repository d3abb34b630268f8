"""A GKE pool's GPU-to-GPU network (GPUDirect) for multi-host groups."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class GpuNetwork(SpecModel):
    """An existing VPC and subnet that carries one GPU NIC of every node of the pool."""

    network: str = Field(description="Name of the VPC network (in the cluster's project).")
    subnetwork: str = Field(description="Name of its subnet in the cluster's region.")


class GpuDirect(SpecModel):
    """GKE: the GPU-to-GPU network of a pool whose nodes serve multi-host groups."""

    type: Literal["rdma", "tcpxo"] = Field(
        description="rdma: GPUDirect RDMA over RoCE (A3 Ultra a3-ultragpu-8g, A4 a4-highgpu-8g): "
        "an RDMA VPC with one subnet per GPU NIC, the pool's additional node networks, GKE "
        "multi-networking, the gIB NCCL plugin and the pods' RDMA interfaces. tcpxo "
        "(GPUDirect-TCPXO, A3 Mega a3-megagpu-8g): eight gVNIC VPCs with a subnet each, the "
        "pool's additional node networks, the TCPXO NCCL plugin and NRI device injector "
        "DaemonSets, and on every pod of a group the tcpxo-daemon (RxDM) sidecar."
    )
    cidr: str = Field(
        "192.168.128.0/18",
        description="IPv4 range split into the GPU subnets (one per GPU NIC); it must not "
        "overlap the cluster's other networks. Unused when networks is given.",
    )
    networks: list[GpuNetwork] | None = Field(
        None,
        description="Existing networks, one per GPU NIC in NIC order (8), instead of the ones "
        "gpuplat creates: rdma, the subnets of one VPC with the RoCE network profile of the "
        "pool's zone; tcpxo, eight different gVNIC VPCs (MTU 8244). gpuplat then creates no "
        "network and only turns on multi-networking.",
    )
