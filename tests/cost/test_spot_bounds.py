"""Spot ceilings are bounded: no cloud bills spot above on-demand, and an AKS spot node is
evicted before it costs more than its pool's max_price. `cost` and `plan` bound them alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.cost.planned import cost_delta
from gpuplat.terraform import parse_plan
from tests.app.test_summary import change, plan_text
from tests.support.cli import run
from tests.support.specs import project

H = 730
SPOT = (
    "          type: spot # evicted when Azure needs the capacity; AKS taints these nodes for it\n"
)


def test_an_aks_max_price_caps_the_spot_ceiling(tmp_path: Path) -> None:
    """aks-a100-vllm dev: 0..2 spot Standard_NC24ads_A100_v4 (spot 0.444433 when read) with
    max_price 0.30: a node is evicted above 0.30, so the ceiling is 2 x 0.30 x 730 h = $438.00,
    not 2 x 0.444433 (the stale point)."""
    root = project(
        tmp_path, ((SPOT, "          type: spot\n          max_price: 0.30\n"),), "aks-a100-vllm"
    )
    data = json.loads(run("cost", "dev", "--json", cwd=root).stdout)
    pool = data["environments"][0]["clusters"][0]["pools"][0]
    assert pool["rungs"][0]["usd_per_hour"] == 0.444433
    assert pool["ceiling_rungs"][0]["usd_per_hour"] == 0.30
    assert "max_price" in pool["ceiling_rungs"][0]["note"]
    assert pool["ceiling"]["usd_per_month"] == round(2 * 0.30 * H, 2) == 438.00


def aks_pool(max_price: float | None) -> str:
    values: dict[str, object] = {
        "vm_size": "Standard_NC24ads_A100_v4",
        "priority": "Spot",
        "min_count": 0,
        "max_count": 2,
    }
    if max_price is not None:
        values["spot_max_price"] = max_price
    return plan_text(
        [
            change(
                "module.pool_inference-eus_a100mig.azurerm_kubernetes_cluster_node_pool.this",
                "azurerm_kubernetes_cluster_node_pool",
                ["create"],
                None,
                values,
            )
        ]
    )


@pytest.mark.parametrize(("max_price", "hourly"), [(0.30, 0.30), (-1, 0.444433), (None, 0.444433)])
def test_a_planned_aks_spot_pool_is_capped_by_its_max_price(
    max_price: float | None, hourly: float
) -> None:
    """The same pool in a plan (written by hand: no Azure emulator exists); -1 is Azure's "no
    cap of the pool's own"."""
    delta = cost_delta(parse_plan(aks_pool(max_price)), {}, {"inference-eus": "eastus"})
    assert delta is not None
    assert delta.ceiling_after.usd_per_hour == pytest.approx(2 * hourly)
