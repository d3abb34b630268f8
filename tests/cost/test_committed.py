"""Reservations and Capacity Blocks are billed for all they hold whether nodes run or not:
`cost` prices them at their committed count at every level, never a $0.00 floor."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import run
from tests.support.specs import project

RESERVED = (
    (
        "        capacity:\n          type: spot\n",
        "        capacity:\n          type: reservation\n          reservation: l4-reserved\n",
    ),
)


def test_a_reservation_costs_its_nodes_at_the_floor(tmp_path: Path) -> None:
    """dev of gke-l4-vllm on a named reservation, 0..2 nodes of g2-standard-8: the
    reservation holds the pool's 2 nodes, billed at on-demand, 0.85363 x 2 x 730 h = $1,246.30
    at the floor, expected and ceiling alike (not $0.00 at the floor)."""
    root = project(tmp_path, RESERVED)
    data = json.loads(run("cost", "dev", "--json", cwd=root).stdout)
    pool = data["environments"][0]["clusters"][0]["pools"][0]
    assert pool["capacity"] == "reservation" and pool["min_nodes"] == 0
    assert [pool[level]["usd_per_month"] for level in ("floor", "expected", "ceiling")] == [
        1246.3,
        1246.3,
        1246.3,
    ]
    assert pool["floor"]["nodes"] == 0, "no node need run: the reservation is billed anyway"


def test_a_capacity_block_floor_is_unknown_not_free(tmp_path: Path) -> None:
    """eks-l4-vllm on a Capacity Block (priced per block when bought: no figure) with
    min_nodes 0: its floor is unknown ("?"), never $0.00, and no budget is within it."""
    root = project(
        tmp_path,
        (
            (
                "        capacity:\n          type: spot\n",
                "        capacity:\n          type: reservation\n"
                "          reservation: cr-0123456789abcdef0\n          block: true\n"
                "        zones: [us-east-1a]\n",
            ),
            (
                "  - name: dev\n    backend:\n",
                "  - name: dev\n    budget:\n      gpu_monthly_usd: 1000000\n    backend:\n",
            ),
        ),
        "eks-l4-vllm",
    )
    data = json.loads(run("cost", "dev", "--json", cwd=root).stdout)
    pool = data["environments"][0]["clusters"][0]["pools"][0]
    assert pool["capacity"] == "capacity-block" and pool["min_nodes"] == 0
    assert pool["floor"]["usd_per_month"] is None and pool["floor"]["partial"] is True
    assert any("Capacity Blocks" in u for u in pool["floor"]["unknown"])
    assert data["environments"][0]["budget"]["verdict"] == "unknown"
