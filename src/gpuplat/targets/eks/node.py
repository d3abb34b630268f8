"""What an EKS node keeps for itself, runs on every node and tells the autoscaler, and how its
node group reads in a plan.

The EKS optimized AMIs configure the kubelet with nodeadm (awslabs/amazon-eks-ami,
nodeadm/internal/kubelet/config.go): kubeReserved CPU is 6% of the first core, 1% of the
second, 0.5% of cores 3-4 and 0.25% of every core above 4; kubeReserved memory is
11 MiB x maxPods + 255 MiB; kubeReserved ephemeral storage 1 GiB; evictionHard
memory.available 100 MiB and nodefs.available 10%. maxPods comes from the VPC CNI's ENI limits,
nodeadm's eni-max-pods.txt: number of ENIs x (IPv4 addresses per ENI - 1) + 2.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gpuplat import catalog
from gpuplat.catalog import Shape
from gpuplat.spec.model import NodePool
from gpuplat.targets.node_reserve import Reserve, tiers

INSTANCE_TYPE_TAG = "gpuplat.dev/instance-type"
RESERVATION_TAG = "gpuplat.dev/capacity-reservation"
"""Node group tags naming what its launch template holds, for reading plans of the group alone."""

_CPU_TIERS = ((1000, 0.06), (1000, 0.01), (2000, 0.005))
EVICTION_MIB = 100
# maxPods of the GPU instance types in gpuplat's catalog, from nodeadm's eni-max-pods.txt.
MAX_PODS = {
    "g4dn.xlarge": 29, "g4dn.2xlarge": 29, "g4dn.4xlarge": 29, "g4dn.8xlarge": 58,
    "g4dn.12xlarge": 234, "g4dn.16xlarge": 58, "g4dn.metal": 737,
    "g5.xlarge": 58, "g5.2xlarge": 58, "g5.4xlarge": 234, "g5.8xlarge": 234,
    "g5.12xlarge": 737, "g5.16xlarge": 234, "g5.24xlarge": 737, "g5.48xlarge": 345,
    "g5g.xlarge": 58, "g5g.2xlarge": 58, "g5g.4xlarge": 234, "g5g.8xlarge": 234,
    "g5g.16xlarge": 737, "g5g.metal": 737,
    "g6.xlarge": 58, "g6.2xlarge": 58, "g6.4xlarge": 234, "g6.8xlarge": 234,
    "g6.12xlarge": 234, "g6.16xlarge": 737, "g6.24xlarge": 737, "g6.48xlarge": 737,
    "g6e.xlarge": 58, "g6e.2xlarge": 58, "g6e.4xlarge": 234, "g6e.8xlarge": 234,
    "g6e.12xlarge": 292, "g6e.16xlarge": 737, "g6e.24xlarge": 492, "g6e.48xlarge": 492,
    "g6f.large": 20, "g6f.xlarge": 58, "g6f.2xlarge": 58, "g6f.4xlarge": 234,
    "gr6.4xlarge": 234, "gr6.8xlarge": 234, "gr6f.4xlarge": 234,
    "p4d.24xlarge": 737, "p4de.24xlarge": 737,
    "p5.4xlarge": 118, "p5.48xlarge": 100, "p5e.48xlarge": 100, "p5en.48xlarge": 198,
    "p6-b200.48xlarge": 198,
}  # fmt: skip
UNLISTED_MAX_PODS = 737
"""For a type the file does not list (nodeadm then asks EC2), the largest value it lists for a
GPU type: a larger reservation, so the replicas' requests still fit."""
MODULE_FEATURES = frozenset({"vpc_cni", "eks_kube_proxy", "eks_pod_identity"})
"""The EKS managed add-ons with a pod on every node that gpuplat's eks-cluster module installs
(its ``addons`` default: vpc-cni, kube-proxy, eks-pod-identity-agent, and CoreDNS, a Deployment);
no EBS CSI driver. Their DaemonSets' requests are in the catalog's ``daemonsets.yaml``."""


def kubelet_reserve(shape: Shape) -> Reserve:
    """CPU and memory nodeadm reserves on a node of this type (eviction threshold included)."""
    max_pods = MAX_PODS.get(shape.name, UNLISTED_MAX_PODS)
    cpu = tiers(shape.vcpus * 1000, _CPU_TIERS, rest=0.0025)
    return Reserve(cpu_millis=int(cpu), memory_mib=11 * max_pods + 255 + EVICTION_MIB)


def ephemeral_reserve_gb(disk_gb: int) -> float:
    """Boot disk nodeadm keeps from pods: kubeReserved 1 GiB and the 10% eviction threshold."""
    return 1.074 + 0.10 * disk_gb


ACCELERATOR_LABEL = "k8s.amazonaws.com/accelerator"
"""The cluster autoscaler (>= 1.15, AWS) reads a node with this label as a GPU node that will
advertise GPUs, and waits for the device plugin instead of scaling out again (its AWS
README, "Special note on GPU instances")."""
ROLLING_KEYS = ("version", "release_version", "launch_template")
"""Node group values whose change replaces the nodes (a new AMI or launch template version)."""


def bottlerocket(pool: NodePool) -> bool:
    """The pool runs a Bottlerocket NVIDIA AMI, which ships its own NVIDIA device plugin."""
    return (pool.image or "").startswith("BOTTLEROCKET")


def accelerator_labels(pool: NodePool) -> dict[str, str]:
    """``k8s.amazonaws.com/accelerator`` with the GPU of the pool's instance type, e.g. nvidia-l4."""
    shape = catalog.shape("eks", pool.machine_type)
    model = shape.gpu_model if shape is not None and shape.gpu_model else pool.accelerator
    if not model:
        return {}
    value = re.sub(r"[^a-z0-9.-]+", "-", model.lower()).strip("-.")
    return {ACCELERATOR_LABEL: value if value.startswith("nvidia") else f"nvidia-{value}"}


def ephemeral_allocatable_gib(disk_gb: int) -> int:
    """Ephemeral storage a node offers pods (GiB, rounded down): its disk less nodeadm's reserve.

    The volume is sized in GiB (EBS), the reserve in GB-ish figures; rounding down keeps the
    autoscaler's template node no larger than a real one.
    """
    return int(disk_gb - ephemeral_reserve_gb(disk_gb))


def reserved_update_warning(before: object, after: object) -> str | None:
    """A warning for an in-place update that replaces the nodes of a reserved node group.

    EKS replaces a managed node group's nodes by launching new ones first, whatever
    max_unavailable says; a Capacity Block or a targeted reservation has no spare instance,
    so the update fails (NodeCreationFailure). EKS's Capacity Blocks guide says to set the
    desired size to 0 before upgrading. The aws provider's update_config.update_strategy
    (MINIMAL: terminate first) exists only from 6.26, beyond what these modules are checked on.
    """
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return None
    tags = after.get("tags") if isinstance(after.get("tags"), Mapping) else {}
    assert isinstance(tags, Mapping)
    block = after.get("capacity_type") == "CAPACITY_BLOCK"
    reservation = tags.get(RESERVATION_TAG)
    if not block and not reservation:
        return None
    if not any(before.get(key) != after.get(key) for key in ROLLING_KEYS):
        return None
    what = "a Capacity Block" if block else f"capacity reservation {reservation}"
    name = after.get("node_group_name") or before.get("node_group_name") or "?"
    return (
        f"node group {name} runs on {what}: this update replaces its nodes, and EKS launches "
        "the new nodes before removing the old, for which the reservation has no room "
        "(NodeCreationFailure). Scale it to 0 first (drain, then `aws eks "
        "update-nodegroup-config --scaling-config minSize=0,desiredSize=0`), apply, then let "
        "the autoscaler scale it up again"
    )


GP3_THROUGHPUT_MIBPS = 500.0
"""The gp3 throughput the eks-gpu-node-group module provisions (its ``disk.throughput`` default)."""

DRAIN_TIMEOUT_MINUTES = 15
"""How long EKS waits for a node's pods to be evicted during a node group update before it fails
the update with PodEvictionFailure (EKS user guide, managed-node-update-behavior)."""


def surge_update_warning(before: object, after: object) -> str | None:
    """A warning for an in-place update that replaces the nodes of an on-demand or spot group.

    EKS always surges a managed node group's update (EKS user guide, "Managed node update
    behavior"): it first raises the Auto Scaling group's desired and max size by up to twice the
    number of its Availability Zones (or by max_unavailable when that is larger), launches those
    nodes, then drains the old nodes max_unavailable at a time; a node whose pods are not
    evicted in 15 minutes fails the update (PodEvictionFailure) unless it is forced.
    """
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return None
    if not any(before.get(key) != after.get(key) for key in ROLLING_KEYS):
        return None
    planned = _surge(after)
    name = after.get("node_group_name") or before.get("node_group_name") or "?"
    itype, subnets, unavailable = planned
    nodes = max(2 * subnets, unavailable) if subnets else None
    surge = (
        f"up to {nodes} extra {itype} node(s) (twice its {subnets} subnet zone(s), or "
        f"max_unavailable {unavailable} if larger)"
        if nodes is not None
        else f"up to twice its zones' count of extra {itype} nodes"
    )
    shape = catalog.shape("eks", itype)
    price = shape.price_on_demand if shape is not None else None
    cost = (
        f", ${nodes * price.usd_per_hour:,.2f}/h at the on-demand list price while they run"
        if price is not None and nodes is not None
        else ""
    )
    return (
        f"node group {name}: this update replaces its nodes, and EKS surges: it first launches "
        f"{surge}{cost}, which need GPU capacity and quota of their own, then drains the old "
        f"nodes {unavailable} at a time; a node whose pods are not evicted within "
        f"{DRAIN_TIMEOUT_MINUTES} minutes (a PodDisruptionBudget with no replica to spare, a "
        "replica with no other GPU to go to) fails the update with PodEvictionFailure. Apply "
        "when the surge nodes can be had, or scale the group down first"
    )


def _surge(values: Mapping[str, object]) -> tuple[str, int, int]:
    """(instance type, subnets, max_unavailable) of a planned node group."""
    types = values.get("instance_types")
    tags = values.get("tags")
    tags = tags if isinstance(tags, Mapping) else {}
    itype = (
        str(types[0])
        if isinstance(types, list) and types
        else str(tags.get(INSTANCE_TYPE_TAG) or "GPU")
    )
    subnets = values.get("subnet_ids")
    count = len(subnets) if isinstance(subnets, list) else 0
    update = values.get("update_config")
    first = update[0] if isinstance(update, list) and update else {}
    raw = first.get("max_unavailable") if isinstance(first, Mapping) else None
    unavailable = raw if isinstance(raw, int) and raw > 0 else 1
    return itype, count, unavailable


EFA_RESOURCE = "vpc.amazonaws.com/efa"


def efa_interfaces(machine_type: str) -> int:
    """EFA interfaces gpuplat attaches to a node (one per network card that has EFA)."""
    shape = catalog.shape("eks", machine_type)
    return shape.efa_interfaces if shape is not None and shape.efa_interfaces else 1


def replica_efa(pools: list[NodePool], gpus: int) -> dict[str, str]:
    """EFA devices a replica requests: its share of a node's interfaces, by its share of the
    GPUs (all of them for a whole-node replica). Only when every pool it may run on has EFA:
    a request no node of some pool advertises would keep the replica off that pool."""
    if not pools or not all(p.efa for p in pools):
        return {}
    counts = []
    for pool in pools:
        shape = catalog.shape("eks", pool.machine_type)
        per_node = shape.gpu_count if shape is not None and shape.gpu_count else 1
        counts.append(max(1, efa_interfaces(pool.machine_type) * min(gpus, per_node) // per_node))
    return {EFA_RESOURCE: str(min(counts))}
