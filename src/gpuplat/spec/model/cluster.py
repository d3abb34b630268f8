"""Clusters and their GPU node pools."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Field, Tag

from gpuplat.spec.model.account import AwsAccount, AzureAccount, GcpAccount
from gpuplat.spec.model.backend import Backend
from gpuplat.spec.model.base import Duration, Labels, SpecModel
from gpuplat.spec.model.ladder import RungItem

Cloud = Literal["gke", "eks", "aks"]
CapacityType = Literal["on-demand", "spot", "reservation", "flex-start", "queued"]
SharingMode = Literal["none", "time-slicing", "mps", "mig"]
TaintEffect = Literal["NoSchedule", "PreferNoSchedule", "NoExecute"]


class Capacity(SpecModel):
    """Where the pool's GPUs come from."""

    type: CapacityType = Field(
        "on-demand",
        description="on-demand, spot, reservation (a specific or any matching reservation / "
        "EC2 capacity block), flex-start (GKE Dynamic Workload Scheduler: nodes start when "
        "capacity frees up, for at most max_run_duration) or queued (GKE queued provisioning "
        "through ProvisioningRequests).",
    )
    reservation: str | None = Field(
        None,
        description="Reservation to consume: GCE reservation name (required on GKE: without "
        "one a pool is an on-demand VM that uses a reservation only if one is free), EC2 capacity reservation / capacity block id, or the resource id of an "
        "Azure capacity reservation group. Only with type reservation.",
    )
    reservation_project: str | None = Field(
        None,
        description="GCP project that owns a shared reservation, when it is not the cluster's.",
    )
    max_run_duration: Duration | None = Field(
        None,
        description="flex-start only: how long a node may run before it is reclaimed (at most 7d).",
    )
    block: bool = Field(
        False,
        description="EKS: the reservation is an EC2 Capacity Block for ML (GPU instances "
        "reserved for a fixed window), not an On-Demand Capacity Reservation.",
    )
    max_price: float | None = Field(
        None,
        gt=0,
        description="AKS spot pools: the most USD per hour a node may cost before Azure evicts "
        "it. Default: the on-demand price (nodes are evicted only when Azure needs the "
        "capacity).",
    )


class Autoscaling(SpecModel):
    """Node autoscaling bounds. ``min_nodes: 0`` lets an idle pool cost nothing."""

    min_nodes: int = Field(
        0, ge=0, description="Fewest nodes across all zones (0 lets the pool scale to zero)."
    )
    max_nodes: int = Field(
        1,
        ge=0,
        description="Most nodes across all zones; for a capacity ladder, across all its rungs "
        "(the one cap of the ladder).",
    )
    max_gpus: int | None = Field(
        None,
        ge=1,
        description="Alternatively, the cap in GPUs: the most GPUs the pool (every rung of its "
        "ladder together) may hold. max_nodes follows from it.",
    )
    when_unavailable: Literal["wait", "scale-up-anyway"] = Field(
        "wait",
        description="GKE ladders: when no rung has capacity, wait (pods stay pending) or "
        "scale-up-anyway (ScaleUpAnyway). On Standard clusters without node-pool "
        "auto-creation, as gpuplat renders them, ScaleUpAnyway lets the autoscaler scale any "
        "pool that carries the class's label and taint: any rung of the ladder, in no order, "
        "not a default machine.",
    )
    per_zone: bool = Field(
        False,
        description="GKE: the bounds apply to each zone (min/max_node_count) instead of to "
        "the whole pool (total_min/max_node_count).",
    )
    location_policy: Literal["BALANCED", "ANY"] | None = Field(
        None,
        description="GKE: BALANCED spreads nodes across zones, ANY takes capacity wherever it "
        "is (better for scarce GPUs and spot). Default: ANY for spot and flex-start pools, "
        "BALANCED otherwise.",
    )


class Placement(SpecModel):
    """Physical placement of the pool's nodes."""

    compact: bool = Field(
        False,
        description="Place nodes close together for low-latency GPU-to-GPU networking "
        "(GKE COMPACT placement policy / EC2 cluster placement group). Single zone only.",
    )
    policy: str | None = Field(
        None, description="GKE: name of an existing resource policy to use for compact placement."
    )


class Taint(SpecModel):
    """A Kubernetes node taint."""

    key: str = Field(description="Taint key, e.g. nvidia.com/gpu.")
    value: str = Field("", description="Taint value.")
    effect: TaintEffect = Field(
        "NoSchedule", description="NoSchedule, PreferNoSchedule or NoExecute."
    )


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


class Sharing(SpecModel):
    """How containers share a node's GPUs."""

    mode: SharingMode = Field(
        "none",
        description="none (a container gets whole GPUs), time-slicing (max_clients containers "
        "take turns on each GPU), mps (max_clients containers run concurrently under CUDA MPS) "
        "or mig (each GPU is split into hardware-isolated MIG instances of `profile`).",
    )
    max_clients: int | None = Field(
        None, description="time-slicing and mps: containers per physical GPU."
    )
    profile: str | None = Field(
        None, description="mig: MIG profile of every instance, e.g. 1g.10gb or 3g.40gb."
    )


class Driver(SpecModel):
    """Who installs the NVIDIA driver on the pool's nodes."""

    install: Literal["managed", "none"] = Field(
        "managed",
        description="managed: the cloud installs it (GKE driver installation, EKS NVIDIA AMIs, "
        "AKS GPU driver). none: something else does (e.g. the GPU Operator).",
    )
    version: Literal["DEFAULT", "LATEST"] = Field(
        "LATEST",
        description="managed driver version channel: DEFAULT or LATEST (GKE).",
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


class NodePool(SpecModel):
    """A pool of identical GPU nodes."""

    name: str = Field(description="Pool name, unique within its cluster.")
    machine_type: str = Field(
        description="Machine shape: GCE machine type (g2-standard-8), EC2 instance type "
        "(g6.xlarge) or Azure VM size (Standard_NC24ads_A100_v4)."
    )
    accelerator: str | None = Field(
        None,
        description="GPU: GKE accelerator name (nvidia-l4) or GPU model (L4, A10G, H100-80GB). "
        "Inferred from machine_type when the catalog knows the shape; required for N1 shapes "
        "with attached GPUs.",
    )
    gpus_per_node: int | None = Field(
        None, ge=1, description="GPUs on each node. Inferred from machine_type when known."
    )
    capacity: Annotated[
        Annotated[Capacity, Tag("one")] | Annotated[list[RungItem], Tag("ladder")],
        Discriminator(lambda v: "ladder" if isinstance(v, list) else "one"),
    ] = Field(
        default_factory=Capacity,
        description="Where the pool's GPUs come from: one capacity type, or a ladder (a list "
        "of rungs, most preferred first) such as [{reservation: h100-res}, on-demand, "
        "{flex-start: {max_run_duration: 7d}}, spot].",
    )
    autoscaling: Autoscaling = Field(default_factory=Autoscaling)
    zones: list[str] | None = Field(
        None, description="Zones of the pool's nodes. Default: the cluster's zones."
    )
    placement: Placement = Field(default_factory=Placement)
    labels: Labels = Field(default_factory=dict, description="Extra Kubernetes node labels.")
    taints: list[Taint] = Field(
        default_factory=list,
        description="Extra node taints. The nvidia.com/gpu=present:NoSchedule taint is always "
        "added.",
    )
    disk: Disk = Field(default_factory=Disk)
    sharing: Sharing = Field(default_factory=Sharing)
    driver: Driver = Field(default_factory=Driver)
    image: str | None = Field(
        None,
        description="Node image: GKE image type (COS_CONTAINERD, UBUNTU_CONTAINERD), EKS AMI "
        "type (AL2023_x86_64_NVIDIA, BOTTLEROCKET_x86_64_NVIDIA) or AKS OS SKU (Ubuntu, "
        "AzureLinux). Default: the cloud's GPU image (AKS: Ubuntu).",
    )
    secondary_boot_disks: list[SecondaryBootDisk] = Field(
        default_factory=list,
        max_length=127,
        description="GKE: disks created beside each node's boot disk from disk images, e.g. "
        "the serving image preloaded (container-image-cache) so a new node starts it without "
        "a pull; lower the workloads' image_pull_time to match. Same type as the boot disk. "
        "Changing them replaces the pool's nodes.",
    )
    efa: bool = Field(
        False,
        description="EKS: attach Elastic Fabric Adapter interfaces (EFA with ENA on the first "
        "network card, EFA-only on the others) and install the EFA device plugin. Needs one "
        "zone.",
    )
    infiniband: bool = Field(
        False,
        description="AKS ND-series pools (Standard_ND96isr_H100_v5, Standard_ND96amsr_A100_v4): "
        "NCCL over the VM's InfiniBand NICs. Installs the NVIDIA Network Operator and a "
        "NicClusterPolicy (DOCA driver, RDMA shared device plugin); a multi-host group's pods "
        "request rdma/ib and get IPC_LOCK. Needs a VM size with InfiniBand.",
    )
    extra_machine_types: list[str] = Field(
        default_factory=list,
        description="EKS spot pools: more EC2 instance types with the same GPU model and count "
        "(and at least the vCPUs and memory of machine_type), so the node group can launch "
        "whichever has spot capacity. Checked against the catalog.",
    )


class KubernetesVersion(SpecModel):
    """Which Kubernetes the control plane runs."""

    version: str | None = Field(
        None,
        description='Minimum control-plane version, e.g. "1.35" (quote it: 1.30 unquoted is '
        "the number 1.3). Checked against the cloud's support calendar on the day (GPUPLAT_TODAY).",
    )
    release_channel: Literal["RAPID", "REGULAR", "STABLE", "EXTENDED", "NONE"] | None = Field(
        None, description="GKE release channel. Default: REGULAR."
    )


class AuthorizedNetwork(SpecModel):
    """A CIDR allowed to reach the control plane."""

    cidr: str = Field(description="IPv4 CIDR, e.g. 10.0.0.0/8.")
    name: str = Field("", description="What the range is, for people reading the plan.")


class Network(SpecModel):
    """Basic network choices."""

    network: str | None = Field(
        None, description="GKE: VPC network name. Default: default. EKS: VPC id to use."
    )
    subnetwork: str | None = Field(None, description="GKE: subnetwork name. Default: default.")
    subnet_ids: list[str] = Field(
        default_factory=list,
        description="EKS: subnet ids for the cluster and its nodes. AKS: the resource id of "
        "the one subnet of every node (Azure CNI overlay); default: a virtual network AKS "
        "creates.",
    )
    vpc_cidr: str | None = Field(
        None, description="EKS: CIDR of a new VPC gpuplat creates when no network is given."
    )
    private_nodes: bool = Field(False, description="Nodes get no public IP addresses.")
    cloud_nat: bool | None = Field(
        None,
        description="GKE private nodes (required with them: gpuplat does not own the VPC): true "
        "creates a Cloud Router and Cloud NAT for the subnetwork, so nodes can pull images and "
        "weights from the internet; false when the VPC already has NAT for it (a second NAT "
        "for the same subnetwork fails to create).",
    )
    public_endpoint: bool = Field(
        True,
        description="EKS and AKS: the Kubernetes API is also reachable from the internet "
        "(limited to authorized_networks when given); false: only from inside the VPC or "
        "virtual network (an AKS private cluster).",
    )
    control_plane_cidr: str | None = Field(
        None, description="GKE private clusters: the /28 range of the control plane."
    )
    authorized_networks: list[AuthorizedNetwork] = Field(
        default_factory=list,
        description="CIDRs allowed to reach the control plane. Empty: no restriction beyond "
        "the cloud's default.",
    )
    private_endpoint_networks: list[AuthorizedNetwork] = Field(
        default_factory=list,
        description="EKS: CIDRs inside the VPC or connected to it (CI runners, a VPN) allowed "
        "to reach the private API endpoint on 443. Needed to apply the platform and serving "
        "stages when public_endpoint is false.",
    )


class SystemPool(SpecModel):
    """The small CPU pool that runs system pods, so GPU nodes can scale to zero."""

    machine_type: str | None = Field(
        None, description="Default: e2-standard-4 (GKE), m6i.large (EKS), Standard_D4s_v5 (AKS)."
    )
    min_nodes: int = Field(1, ge=0)
    max_nodes: int = Field(3, ge=1)
    spot: bool = Field(
        False,
        description="Run the system nodes on spot capacity (GKE and EKS; cheap, but evictions "
        "restart CoreDNS, KEDA and the autoscaler). AKS system node pools cannot be Spot.",
    )


class Cluster(SpecModel):
    """A Kubernetes cluster and its GPU node pools."""

    name: str = Field(description="Cluster name, unique in the spec.")
    cloud: Cloud = Field(description="gke, eks or aks.")
    region: str = Field(description="Cloud region, e.g. us-central1 or us-east-1.")
    zones: list[str] = Field(
        default_factory=list, description="Zones for nodes. Default: the cloud's choice."
    )
    regional: bool = Field(
        True, description="GKE: a regional (replicated) control plane; false for zonal."
    )
    kubernetes: KubernetesVersion = Field(default_factory=KubernetesVersion)
    gcp: GcpAccount | None = Field(None, description="Required for gke.")
    aws: AwsAccount | None = Field(None, description="Optional for eks.")
    azure: AzureAccount | None = Field(None, description="Required for aks.")
    network: Network = Field(default_factory=Network)
    deletion_protection: bool | None = Field(
        None, description="Refuse to delete the cluster. Default: on in protected environments."
    )
    labels: Labels = Field(default_factory=dict, description="Cloud resource labels / tags.")
    system_pool: SystemPool = Field(default_factory=SystemPool)
    node_pools: list[NodePool] = Field(default_factory=list, description="GPU node pools.")
    backend: Backend | None = Field(
        None,
        description="Where this cluster's Terraform state lives, when not in the environment's "
        "backend: e.g. an EKS cluster's in S3 while a GKE cluster's is in GCS, so each cloud is "
        "planned with its own credentials only. Set it per environment in the overlays.",
    )


__all__ = [
    "AuthorizedNetwork",
    "Autoscaling",
    "AwsAccount",
    "AzureAccount",
    "Capacity",
    "Cloud",
    "Cluster",
    "Disk",
    "Driver",
    "GcpAccount",
    "KubernetesVersion",
    "Network",
    "NodePool",
    "Placement",
    "Sharing",
    "SystemPool",
    "Taint",
]
