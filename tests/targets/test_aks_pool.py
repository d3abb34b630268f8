"""An AKS GPU pool as the cluster autoscaler sees it at zero nodes.

The Azure autoscaler builds the template node of a scale set with no VM from the VM size (one
GPU for Standard_NC24ads_A100_v4) unless the scale set carries the node-template resource tag
(kubernetes/autoscaler cloudprovider/azure/azure_template.go reads
``k8s.io_cluster-autoscaler_node-template_resources_<name>``, "_" read as "/"). The
aks-a100-vllm pool splits each A100 into two 3g.40gb instances, advertised as nvidia.com/gpu: 2.
Planned by real terraform through the azurerm stand-in; what it cannot show is AKS copying the
node pool's tags onto the scale set (AKS documents it) and the autoscaler reading them there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.aksplan import plan_golden

pytestmark = pytest.mark.terraform

TAG = "k8s.io_cluster-autoscaler_node-template_resources_nvidia.com_gpu"


def test_a_mig_pool_tells_the_autoscaler_its_instances_at_zero_nodes(tmp_path: Path) -> None:
    planned = plan_golden(tmp_path, "dev")
    (pool,) = (
        v for a, v in planned.items() if a.endswith("azurerm_kubernetes_cluster_node_pool.this")
    )
    assert pool["vm_size"] == "Standard_NC24ads_A100_v4" and pool["gpu_instance"] == "MIG3g"
    assert pool["min_count"] == 0
    tags = pool["tags"]
    assert isinstance(tags, dict)
    assert tags[TAG] == "2"  # 1 A100 x 2 instances of 3g.40gb
    # The name the autoscaler reads it as.
    assert TAG.split("node-template_resources_")[1].replace("_", "/") == "nvidia.com/gpu"
    assert tags["managed-by"] == "gpuplat"  # the spec's tags stay
