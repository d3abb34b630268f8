"""An AKS control plane as a production platform needs it: its tier (Free, Standard with an
uptime SLA, Premium with long-term support), its upgrade and node OS channels and the weekly
maintenance window, chosen in the spec (azure:) as the Azure Verified Module and KAITO's
examples expose them. Planned through the azurerm stand-in: what it cannot show is AKS keeping
the window (a node image rollout reimages GPU nodes inside it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.aksplan import plan_infra
from tests.support.cli import run
from tests.support.specs import project

CHOICES = (
    (
        "      resource_group: acme-inference-dev\n",
        "      resource_group: acme-inference-dev\n"
        "      sku_tier: Standard\n"
        "      node_os_upgrade_channel: SecurityPatch\n"
        "      maintenance:\n"
        "        day_of_week: Saturday\n"
        "        start_time: '22:00'\n"
        "        utc_offset: '-05:00'\n"
        "        duration_hours: 6\n",
    ),
)


@pytest.mark.terraform
def test_tier_channels_and_window_reach_the_planned_cluster(tmp_path: Path) -> None:
    folder = project(tmp_path, CHOICES, "aks-a100-vllm")
    validated = run("validate", "--strict", cwd=folder)
    assert validated.exit_code == 0, validated.stderr
    assert run("render", cwd=folder).exit_code == 0
    planned = plan_infra(folder / "envs" / "dev" / "inference-eus" / "infra")
    (cluster,) = (v for a, v in planned.items() if a.endswith("azurerm_kubernetes_cluster.this"))
    assert cluster["sku_tier"] == "Standard"
    assert cluster["automatic_upgrade_channel"] == "patch"
    assert cluster["node_os_upgrade_channel"] == "SecurityPatch"
    for block in ("maintenance_window_auto_upgrade", "maintenance_window_node_os"):
        (window,) = cluster[block]  # type: ignore[misc]
        assert (window["day_of_week"], window["start_time"], window["utc_offset"]) == (
            "Saturday",
            "22:00",
            "-05:00",
        )
        assert window["duration"] == 6


def test_a_window_shorter_than_aks_allows_is_refused_at_the_key(tmp_path: Path) -> None:
    patch = ((CHOICES[0][0], CHOICES[0][1].replace("duration_hours: 6", "duration_hours: 2")),)
    folder = project(tmp_path, patch, "aks-a100-vllm")
    result = run("validate", cwd=folder)
    assert result.exit_code == 4
    assert "clusters[0].azure.maintenance.duration_hours" in result.stderr
