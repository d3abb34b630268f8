"""An AKS cluster renders like a GKE or EKS one: every stage's root, per environment."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run
from tests.support.specs import project

AKS = (
    (
        "\naddons:\n",
        "  - name: aks-west\n    cloud: aks\n    region: westeurope\n"
        "    azure:\n      subscription_id: 00000000-0000-0000-0000-000000000000\n"
        "      resource_group: gpu\n"
        "    node_pools:\n      - name: a100\n        machine_type: Standard_NC24ads_A100_v4\n"
        "\naddons:\n",
    ),
)


def test_aks_cluster_renders_every_stage(tmp_path: Path) -> None:
    folder = project(tmp_path, AKS)
    assert run("validate", cwd=folder).exit_code == 0
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    for env in ("dev", "prod"):
        for stage in ("infra", "platform"):
            assert (folder / "envs" / env / "aks-west" / stage / "main.tf").is_file()
    infra = (folder / "envs" / "dev" / "aks-west" / "infra" / "main.tf").read_text()
    assert 'source = "../../../../modules/aks-cluster/' in infra
    assert 'module "pool_aks-west_a100"' in infra
    assert 'vm_size               = "Standard_NC24ads_A100_v4"' in infra


SPOT = (
    *AKS,
    (
        "        machine_type: Standard_NC24ads_A100_v4\n\naddons:\n",
        "        machine_type: Standard_NC24ads_A100_v4\n        capacity:\n          type: spot\n"
        "\naddons:\n",
    ),
)


def test_aks_spot_taint_is_tolerated_by_gpu_daemonsets(tmp_path: Path) -> None:
    """AKS taints every spot node kubernetes.azure.com/scalesetpriority=spot:NoSchedule by
    itself; the device plugin must tolerate it or the pool's GPUs are never advertised."""
    folder = project(tmp_path, SPOT)
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    platform = (folder / "envs" / "dev" / "aks-west" / "platform" / "main.tf").read_text()
    assert (
        '  pool_tolerations = [\n    {\n      effect = "NoSchedule"\n'
        '      key    = "kubernetes.azure.com/scalesetpriority"\n    },\n  ]\n'
    ) in platform
