"""A capacity ladder's price: one rung of unknown price does not lose the known ones, `plan`
and `cost` price the same ladder alike, and a plan names its rung node pools by the spec's pool.

The plan here is written in the `terraform show -json` format by hand, one node pool per rung as
gpuplat renders them (bounds, zones, shape, capacity flags and labels read from the spec's
ladder): the google provider cannot run on this machine, so no real GKE plan can be recorded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.addresses import elements
from gpuplat.cost.estimate import estimate
from gpuplat.cost.rates import shape_rate
from gpuplat.labels import POOL_LABEL
from gpuplat.render.naming import module_label
from gpuplat.spec.ladder import RUNG_LABEL
from gpuplat.spec.load import load_project
from gpuplat.summary import summarize
from gpuplat.targets import pool_node_bounds, target
from gpuplat.terraform import parse_plan
from tests.app.test_summary import change, plan_text
from tests.support.cli import run
from tests.support.specs import GKE_LADDER_PATCH, project

H = 730


def ladder_spec(tmp_path: Path):  # type: ignore[no-untyped-def]
    root = project(tmp_path, GKE_LADDER_PATCH)
    return root, load_project(root, ["dev"]).envs["dev"].spec


def test_one_unknown_rung_keeps_the_known_ones(tmp_path: Path) -> None:
    """reservation -> on-demand -> flex-start -> spot of g2-standard-8, cap 2 nodes (dev).

    Worked: the reservation is billed for the 2 nodes it holds whether they run or not, at
    on-demand: 0.85363 $/h x 2 x 730 h = $1,246.30 at every level. At the ceiling the other
    rungs may fill the cap while it sits idle: the dearest known of them is on-demand, another
    $1,246.30; flex-start has no per-shape figure, so the ceiling is at least $2,492.60:
    "$2,492.60+", not "?".
    """
    root, spec = ladder_spec(tmp_path)
    pool = estimate("dev", spec).clusters[0].pools[0]
    on_demand = shape_rate("gke", "g2-standard-8", "on-demand", "us-central1").usd_per_hour
    assert on_demand == 0.85363 and pool.max_nodes == 2
    assert pool.ceiling.cost.usd_per_hour == pytest.approx(4 * on_demand)
    assert pool.ceiling.cost.partial
    assert any("flex-start" in reason for reason in pool.ceiling.cost.unknown)
    assert pool.ceiling.cost.text() == "$2,492.60+"
    assert pool.floor.cost.text() == "$1,246.30"
    table = run("cost", "dev", cwd=root).stdout
    assert "$2,492.60+" in table


def rung_plan(spec) -> str:  # type: ignore[no-untyped-def]
    """One created google_container_node_pool per rung of the spec's ladder."""
    cluster = spec.clusters[0]
    pool = cluster.node_pools[0]
    changes = []
    for rung in target("gke").ladder(cluster, pool).rungs:
        low, high = pool_node_bounds(cluster, rung.pool)
        config: dict[str, object] = {
            "machine_type": rung.pool.machine_type,
            "guest_accelerator": [{"count": 1, "type": "nvidia-l4"}],
            "labels": {POOL_LABEL: pool.name, RUNG_LABEL: rung.name},
            "spot": rung.kind == "spot",
            "flex_start": rung.kind == "flex-start",
        }
        if rung.kind == "reservation":
            config["reservation_affinity"] = [{"consume_reservation_type": "SPECIFIC_RESERVATION"}]
        values = {
            "autoscaling": [{"total_min_node_count": low, "total_max_node_count": high}],
            "node_config": [config],
            "node_locations": list(rung.pool.zones or cluster.zones or []),
        }
        label = module_label("pool", cluster.name, rung.pool.name)
        changes.append(
            change(
                f"module.{label}.google_container_node_pool.this",
                "google_container_node_pool",
                ["create"],
                None,
                values,
            )
        )
    return plan_text(changes)


def test_plan_and_cost_price_a_ladder_alike(tmp_path: Path) -> None:
    """The plan that creates the ladder's four rung node pools costs what `cost` says the pool
    costs, at the floor and the ceiling, with the same unknown rung named."""
    _, spec = ladder_spec(tmp_path)
    pool = estimate("dev", spec).clusters[0].pools[0]
    summary = summarize(
        "dev", "infra", parse_plan(rung_plan(spec)), elements(spec), {"inference-us": "us-central1"}
    )
    assert summary.cost is not None
    assert summary.cost.ceiling_after.usd_per_hour == pytest.approx(pool.ceiling.cost.usd_per_hour)
    assert summary.cost.floor_after.usd_per_hour == pytest.approx(pool.floor.cost.usd_per_hour)
    assert summary.cost.ceiling_after.text() == pool.ceiling.cost.text() == "$2,492.60+"
    assert summary.cost.floor_after.text() == pool.floor.cost.text() == "$1,246.30"


def test_rung_pools_are_named_by_the_spec_pool_in_a_plan(tmp_path: Path) -> None:
    """Every rung node pool is the spec's pool inference-us/l4-shared (what --allow-destroy
    takes), never "other -"."""
    _, spec = ladder_spec(tmp_path)
    summary = summarize("dev", "infra", parse_plan(rung_plan(spec)), elements(spec))
    assert [c.element.label() for c in summary.elements] == ["pool inference-us/l4-shared"]
    assert sum(c.actions["create"] for c in summary.elements) == 4
    assert not any("other -" in line for line in summary.lines())
