"""What an EKS node keeps for itself, so the rest can be divided among a node group's replicas.

The EKS optimized AMIs configure the kubelet with nodeadm (awslabs/amazon-eks-ami,
nodeadm/internal/kubelet/config.go): kubeReserved CPU is 6% of the first core, 1% of the
second, 0.5% of cores 3-4 and 0.25% of every core above 4; kubeReserved memory is
11 MiB x maxPods + 255 MiB; kubeReserved ephemeral storage 1 GiB; evictionHard
memory.available 100 MiB and nodefs.available 10%. maxPods comes from the VPC CNI's ENI limits,
nodeadm's eni-max-pods.txt: number of ENIs x (IPv4 addresses per ENI - 1) + 2.
"""

from __future__ import annotations

from gpuplat.catalog import Shape
from gpuplat.targets.node_reserve import Reserve, tiers

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
SYSTEM_PODS = Reserve(cpu_millis=250, memory_mib=256)
"""The EKS add-ons' pods on every node (kube-proxy, aws-node with its network policy agent, the
Pod Identity agent): an allowance gpuplat estimates, not a documented figure; `kubectl describe
node` shows the real sum under "Non-terminated Pods"."""


def kubelet_reserve(shape: Shape) -> Reserve:
    """CPU and memory nodeadm reserves on a node of this type (eviction threshold included)."""
    max_pods = MAX_PODS.get(shape.name, UNLISTED_MAX_PODS)
    cpu = tiers(shape.vcpus * 1000, _CPU_TIERS, rest=0.0025)
    return Reserve(cpu_millis=int(cpu), memory_mib=11 * max_pods + 255 + EVICTION_MIB)


def ephemeral_reserve_gb(disk_gb: int) -> float:
    """Boot disk nodeadm keeps from pods: kubeReserved 1 GiB and the 10% eviction threshold."""
    return 1.074 + 0.10 * disk_gb
