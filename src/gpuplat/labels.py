"""Kubernetes node labels gpuplat puts on GPU nodes and the add-ons read."""

from __future__ import annotations

POOL_LABEL = "gpuplat.dev/pool"
"""Every GPU node carries its pool's name: workloads select pools by it."""
INFINIBAND_LABEL = "gpuplat.dev/infiniband-network"
"""AKS InfiniBand nodes carry the name of the node pool (one scale set, one physical InfiniBand
network) they belong to: Kueue places a group by it, since AKS labels no network topology."""
DEVICE_PLUGIN_CONFIG_LABEL = "nvidia.com/device-plugin.config"
"""The NVIDIA device plugin picks its per-node config (time-slicing, MPS) by this label."""
MIG_CONFIG_LABEL = "nvidia.com/mig.config"
"""The GPU Operator's MIG manager partitions a node's GPUs by this label."""
SHARED_MODES = ("time-slicing", "mps")
"""Sharing modes a device plugin implements through a per-pool config."""
