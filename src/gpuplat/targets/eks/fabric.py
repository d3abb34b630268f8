"""EFA as the fabric of a multi-host group: what each pod of the group adds on EFA pools.

The node side (EFA interfaces in the launch template, the self-referencing EFA security group,
a cluster placement group) is the eks-gpu-node-group module's; the pod side is here: the EFA
devices (``vpc.amazonaws.com/efa``, node.replica_efa), 2 MiB hugepages for libfabric's EFA
provider, and the environment that makes NCCL use EFA through the aws-ofi-nccl plugin.

The topology Kueue places a group by is EKS's network topology labels
(``topology.k8s.aws/network-node-layer-<n>``, Amazon EKS user guide, "Place distributed AI/ML
workloads with network topology labels"): a node's network nodes in the EC2 instance topology,
on the instance types whose topology EC2 describes (Amazon EC2 user guide, "Prerequisites for
Amazon EC2 topology", instance types: three layers, or four on P6-B200 and P6-B300).
"""

from __future__ import annotations

from gpuplat.spec.model import NodePool
from gpuplat.targets.fabric import GroupFabric

HUGEPAGES = {"hugepages-2Mi": "5120Mi"}
"""libfabric's EFA provider registers its buffers in 2 MiB hugepages. 5120Mi is what AWS's own
multi-node NCCL tests on EKS p5/p5e nodes request (aws-samples/awsome-distributed-training,
micro-benchmarks/nccl-tests/kubernetes, HUGEPAGES_2MI=5120Mi); a hugepages request must equal
its limit, and the memory it takes comes out of the node's, not the container's, memory."""

ENVIRONMENT = {
    "FI_PROVIDER": "efa",
    "FI_EFA_USE_DEVICE_RDMA": "1",
}
"""FI_PROVIDER=efa keeps libfabric (under aws-ofi-nccl) from falling back to TCP sockets;
FI_EFA_USE_DEVICE_RDMA=1 turns on GPUDirect RDMA on p4d/p5 (default on with libfabric >= 1.18
and aws-ofi-nccl >= 1.7, harmless before: aws-samples/awsome-distributed-training,
1.architectures/efa-cheatsheet.md). The image must carry libfabric and aws-ofi-nccl (the
vLLM and SGLang images for EFA do; the plain upstream images fall back to TCP)."""


def group_pod(pools: list[NodePool]) -> GroupFabric:
    """Hugepages and the EFA environment when every pool of the group has EFA."""
    if not pools or not all(p.efa for p in pools):
        return GroupFabric()
    return GroupFabric(resources=dict(HUGEPAGES), env=dict(ENVIRONMENT))


LAYER = "topology.k8s.aws/network-node-layer-{}"
HOSTNAME = "kubernetes.io/hostname"
THREE_LAYERS = frozenset(
    {
        *(f"g6e.{s}" for s in ("xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge")),
        *(f"g6e.{s}" for s in ("16xlarge", "24xlarge", "48xlarge")),
        *(f"g7e.{s}" for s in ("2xlarge", "4xlarge", "8xlarge", "12xlarge", "24xlarge")),
        "g7e.48xlarge",
        "p3dn.24xlarge",
        "p4d.24xlarge",
        "p4de.24xlarge",
        "p5.48xlarge",
        "p5e.48xlarge",
        "p5en.48xlarge",
        "p6e-gb200.36xlarge",
        "trn1.2xlarge",
        "trn1.32xlarge",
        "trn1n.32xlarge",
        "trn2.48xlarge",
        "trn2u.48xlarge",
    }
)
"""GPU and Trainium instance types whose EC2 topology has three network layers (the HPC types
of the same list carry no GPU and are left out)."""
FOUR_LAYERS = frozenset({"p6-b200.48xlarge", "p6-b300.48xlarge"})
"""Instance types whose EC2 topology has four network layers."""


def layers(machine_type: str) -> int:
    """Network layers EKS labels a node of ``machine_type`` with; 0 where it labels none."""
    if machine_type in FOUR_LAYERS:
        return 4
    return 3 if machine_type in THREE_LAYERS else 0


def topology(pools: list[NodePool]) -> tuple[tuple[str, ...], str] | None:
    """The network layers every pool's nodes carry, widest first, then the host name; a group
    would rather fit under one bottom-layer network node (the nodes closest to each other).
    None when a pool's instance type has no EC2 topology."""
    depth = min((layers(p.machine_type) for p in pools), default=0)
    if depth == 0:
        return None
    levels = tuple(LAYER.format(n) for n in range(1, depth + 1))
    return (*levels, HOSTNAME), levels[-1]


def note(pool: NodePool) -> tuple[str, str] | None:
    """A warning for a multi-host group on a pool without EFA (NCCL then runs over TCP)."""
    if pool.efa:
        return None
    return (
        f'a multi-host group on pool "{pool.name}" exchanges its tensors over TCP: the pool '
        "has no EFA",
        "set efa: true on the pool (p4d, p5, p5e, p5en, p6 carry EFA)",
    )
