"""The stand-in enforces the provider rules (schema_provider/rules.py): real `terraform validate`
and `plan` fail where the real provider would, with the attribute's file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.realparts import REPO
from tests.support.standin import build_stand_ins, record_env, run

pytestmark = pytest.mark.terraform

RELEASES = REPO / "src" / "gpuplat" / "releases" / "modules"
AKS = REPO / "tests" / "golden" / "aks-a100-vllm"

POOL = """
terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm", version = "4.79.0" }
  }
}

provider "azurerm" {
  features {}
}

resource "azurerm_kubernetes_cluster_node_pool" "gpu" {
  name                  = "gpu"
  kubernetes_cluster_id = "/subscriptions/0/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/c"
  vm_size               = "VM_SIZE"

  upgrade_settings {
UPGRADE
  }
}
"""


@pytest.fixture(scope="module")
def cli_config() -> Path:
    return build_stand_ins()


def _root(tmp_path: Path, vm_size: str = "Standard_NC24ads_A100_v4", upgrade: str = "") -> Path:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    text = POOL.replace("VM_SIZE", vm_size).replace(
        "UPGRADE", upgrade or '    max_unavailable = "1"'
    )
    (root / "main.tf").write_text(text)
    return root


def test_both_upgrade_settings_fail_validate_at_their_lines(
    cli_config: Path, tmp_path: Path
) -> None:
    root = _root(tmp_path, upgrade='    max_surge       = "0"\n    max_unavailable = "1"')
    assert run(cli_config, root, "init", "-backend=false", "-input=false").returncode == 0
    done = run(cli_config, root, "validate")
    assert done.returncode == 1
    assert "Error: rule-conflicts-with: `max_surge` cannot be set together with" in done.stderr
    assert "on main.tf line 18, in resource" in done.stderr  # max_surge
    assert "on main.tf line 19, in resource" in done.stderr  # max_unavailable
    assert "kubernetes_cluster_node_pool_resource.go:1317" in done.stderr


def _aks_prod_infra(tmp_path: Path, pool_version: str) -> Path:
    tree = tmp_path / "aks"
    shutil.copytree(AKS, tree)
    release = RELEASES / "aks-gpu-node-pool" / pool_version
    target = tree / "modules" / "aks-gpu-node-pool" / pool_version
    if not target.exists():
        shutil.copytree(release, target)
    root = tree / "envs" / "prod" / "inference-eus" / "infra"
    (root / "backend.tf").unlink()  # no Azure storage account here: local state
    (root / ".terraform.lock.hcl").unlink(missing_ok=True)
    main = root / "main.tf"
    text = main.read_text()
    current = text.split("modules/aks-gpu-node-pool/", 1)[1].split('"', 1)[0]
    text = text.replace(f"aks-gpu-node-pool/{current}", f"aks-gpu-node-pool/{pool_version}")
    # Inputs added after 1.0.1 (advertised_gpus, 1.1.0) are not arguments of the older release.
    lines = [ln for ln in text.splitlines(keepends=True) if "advertised_gpus" not in ln]
    main.write_text("".join(lines))
    return root


@pytest.mark.parametrize(("version", "refused"), [("1.0.0", True), ("1.0.1", False)])
def test_the_aks_gpu_pool_module_plans_only_from_1_0_1(
    cli_config: Path, tmp_path: Path, version: str, refused: bool
) -> None:
    """1.0.0 set both max_surge and max_unavailable on a regular pool: azurerm refuses it."""
    root = _aks_prod_infra(tmp_path, version)
    env = record_env()  # reads the data sources the aks-cluster module declares
    assert run(cli_config, root, "init", "-input=false", env=env).returncode == 0
    done = run(cli_config, root, "plan", "-input=false", env=env)
    conflict = "rule-conflicts-with: `max_surge` cannot be set together with" in done.stderr
    assert (done.returncode != 0, conflict) == (refused, refused), done.stderr[-2000:]


def test_a_vm_size_change_needs_temporary_name_for_rotation(
    cli_config: Path, tmp_path: Path
) -> None:
    """An update rule (azurerm's update code): only a plan with a prior state can see it."""
    root = _root(tmp_path)
    env = record_env()
    assert run(cli_config, root, "init", "-input=false", env=env).returncode == 0
    applied = run(cli_config, root, "apply", "-input=false", "-auto-approve", env=env)
    assert applied.returncode == 0, applied.stderr
    _root(tmp_path, vm_size="Standard_NC48ads_A100_v4")
    done = run(cli_config, root, "plan", "-input=false", env=env)
    assert done.returncode == 1
    assert "rule-conditional: changing this node pool replaces its nodes" in done.stderr
    assert "`temporary_name_for_rotation`" in done.stderr
