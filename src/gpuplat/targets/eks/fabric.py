"""EFA as the fabric of a multi-host group: what each pod of the group adds on EFA pools.

The node side (EFA interfaces in the launch template, the self-referencing EFA security group,
a cluster placement group) is the eks-gpu-node-group module's; the pod side is here: the EFA
devices (``vpc.amazonaws.com/efa``, node.replica_efa), 2 MiB hugepages for libfabric's EFA
provider, and the environment that makes NCCL use EFA through the aws-ofi-nccl plugin.
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


def note(pool: NodePool) -> tuple[str, str] | None:
    """A warning for a multi-host group on a pool without EFA (NCCL then runs over TCP)."""
    if pool.efa:
        return None
    return (
        f'a multi-host group on pool "{pool.name}" exchanges its tensors over TCP: the pool '
        "has no EFA",
        "set efa: true on the pool (p4d, p5, p5e, p5en, p6 carry EFA)",
    )
