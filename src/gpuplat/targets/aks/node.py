"""What an AKS node keeps for itself and what its module turns on there, so the rest can be
divided among a pool's replicas.

AKS documents the reservation ("Node resource reservations in Azure Kubernetes Service",
https://learn.microsoft.com/azure/aks/node-resource-reservations, AKS 1.29 and later):

- CPU (kube-reserved) by cores on the host: 60m for 1 core, 100m for 2, 140m for 4, 180m for 8,
  260m for 16, 420m for 32 and 740m for 64. Those points are 60m for the first core, 40m for the
  second, 20m for each of cores 3-4 and 10m for every core above 4; gpuplat uses that rule for
  the core counts the table does not list (24, 40, 48, 80, 96);
- memory: the kubelet's eviction threshold memory.available < 100Mi, plus kube-reserved, the
  lesser of 20 MB x max pods + 50 MB and 25% of the node's memory. gpuplat counts those MB as
  MiB (a reservation a little larger, so the replicas' requests still fit).

Pods per node are what gpuplat's node pools set (``max_pods``, the same for every pool), so the
reservation is known when the spec is checked. AKS documents no ephemeral-storage reservation;
gpuplat keeps the kubelet's default eviction threshold, 10% of the OS disk.
"""

from __future__ import annotations

from gpuplat.catalog import Shape
from gpuplat.targets.node_reserve import Reserve, tiers

_CPU_TIERS = ((1000, 0.06), (1000, 0.04), (2000, 0.02))
EVICTION_MIB = 100
MAX_PODS = 110
"""Pods per node on gpuplat's AKS pools: Kubernetes' default, enough for the daemonsets and the
replicas of a node's MIG instances or shared slices, and far fewer than Azure CNI overlay's 250
(every pod slot reserves 20 MB)."""
MODULE_FEATURES = frozenset(
    {"azure_cni_overlay", "aks_cilium_dataplane", "azure_disk_csi", "azure_blob_csi"}
)
"""What gpuplat's aks-cluster module turns on for every node, each bringing AKS's DaemonSets
with it (catalog ``daemonsets.yaml``): Azure CNI overlay with the Cilium data plane (so no
kube-proxy), the Azure Disk and Blob CSI drivers (``blob_driver`` defaults to on; the Files
driver is off). cloud-node-manager runs on every AKS node whatever is on."""


def kubelet_reserve(shape: Shape) -> Reserve:
    """CPU and memory AKS reserves on a node of this size (eviction threshold included)."""
    cpu = tiers(shape.vcpus * 1000, _CPU_TIERS, rest=0.01)
    memory = float(shape.memory_gib) * 1024
    kube_reserved = min(20 * MAX_PODS + 50, 0.25 * memory)
    return Reserve(cpu_millis=round(cpu), memory_mib=round(kube_reserved) + EVICTION_MIB)


def ephemeral_reserve_gb(disk_gb: int) -> float:
    """OS disk the kubelet keeps from pods: its default nodefs eviction threshold, 10%."""
    return 0.10 * disk_gb
