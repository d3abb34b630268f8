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

import json
from pathlib import Path

import pytest

from tests.support.aksplan import plan_golden
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.realparts import REPO
from tests.support.specs import project
from tests.support.standin import build_stand_ins, record_env
from tests.support.standin import run as terraform

pytestmark = pytest.mark.terraform

VERSION = "1.2.0"
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


def test_a_mig_pool_on_azure_linux_validates_and_renders(tmp_path: Path) -> None:
    """AKS documents MIG node pools on Azure Linux (since January 2026): AKS partitions the
    GPUs with its own driver on either image, and the device plugin runs the single strategy."""
    folder = project(
        tmp_path,
        (
            (
                "        disk:\n          size_gb: 256\n",
                "        disk:\n          size_gb: 256\n        image: AzureLinux\n",
            ),
        ),
        "aks-a100-vllm",
    )
    validated = run("validate", "--strict", cwd=folder)
    assert validated.exit_code == 0, validated.stderr
    assert run("render", cwd=folder).exit_code == 0
    infra = modules(folder / "envs" / "dev" / "inference-eus" / "infra" / "main.tf")
    (pool,) = (m for name, m in infra.items() if name.startswith("pool_"))
    assert (pool["os_sku"], pool["gpu_instance"]) == ("AzureLinux", "MIG3g")
    platform = modules(folder / "envs" / "dev" / "inference-eus" / "platform" / "main.tf")
    assert next(iter(platform.values()))["mig_strategy"] == "single"


ROOT = """
terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm", version = "4.79.0" }
  }
}

provider "azurerm" {
  features {}
}

module "pool" {
  source                = "MODULE"
  kubernetes_cluster_id = "/subscriptions/0/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/c"
  orchestrator_version  = "1.34"
  vnet_subnet_id        = null
  name                  = "a100mig"
  vm_size               = "VM_SIZE"
  gpus_per_node         = 1
  gpu_instance          = "MIG3g"
  advertised_gpus       = 2
  capacity              = { priority = "Regular" }
  scaling               = { min_nodes = 0, max_nodes = 2 }
  disk                  = { size_gb = 256, type = "Managed" }
}
"""


def _pool_root(root: Path, vm_size: str) -> Path:
    root.mkdir(exist_ok=True)
    module = REPO / "src" / "gpuplat" / "releases" / "modules" / "aks-gpu-node-pool" / VERSION
    text = ROOT.replace("MODULE", str(module)).replace("VM_SIZE", vm_size)
    (root / "main.tf").write_text(text, encoding="utf-8")
    return root


def test_a_vm_size_change_replaces_the_pool_in_the_plan(tmp_path: Path) -> None:
    """azurerm cycles a pool whose VM size changes through a temporary pool
    (temporary_name_for_rotation: a second set of GPUs, no drain) or fails without the name;
    gpuplat plans a replacement instead, which the plan summary flags. Applied and re-planned
    through the stand-in in record mode (it stores what was planned; no Azure)."""
    cli = build_stand_ins()
    env = record_env()
    root = _pool_root(tmp_path / "root", "Standard_NC24ads_A100_v4")
    for args in (("init", "-input=false"), ("apply", "-input=false", "-auto-approve")):
        done = terraform(cli, root, *args, timeout=600, env=env)
        assert done.returncode == 0, done.stderr
    _pool_root(root, "Standard_NC48ads_A100_v4")
    # azurerm checks temporary_name_for_rotation in its Update (apply) code; the stand-in checks
    # that rule at plan, also on the first plan Terraform makes before replace_triggered_by
    # turns the update into a replacement, which real azurerm answers without an error.
    env = {**env, "SCHEMA_PROVIDER_RULES": "off"}
    planned = terraform(cli, root, "plan", "-input=false", "-out=p.tfplan", timeout=600, env=env)
    assert planned.returncode == 0, planned.stderr  # no rotation error
    shown = terraform(cli, root, "show", "-json", "p.tfplan", timeout=600, env=env)
    changes = {c["address"]: c for c in json.loads(shown.stdout)["resource_changes"]}
    pool = changes["module.pool.azurerm_kubernetes_cluster_node_pool.this"]
    assert pool["change"]["actions"] == ["delete", "create"]
    assert pool["action_reason"] == "replace_by_triggers"
    assert pool["change"]["after"]["vm_size"] == "Standard_NC48ads_A100_v4"
