"""Clouds gpuplat validates but does not render say so instead of rendering half a platform."""

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


def test_aks_is_validated_but_not_rendered(tmp_path: Path) -> None:
    folder = project(tmp_path, AKS)
    assert run("validate", cwd=folder).exit_code == 0
    result = run("render", cwd=folder)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: gpuplat cannot render AKS clusters yet: aks-west\n")
    assert not (folder / "envs" / "dev" / "infra").exists()
