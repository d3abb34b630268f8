"""GKE pools are created at their minimum, spread over their zones.

GKE creates ``initial_node_count`` (or a fixed pool's ``node_count``) nodes in every zone of a
pool, and its cluster autoscaler uses the minimum only when it scales down (GKE cluster
autoscaler docs; terraform-google-kubernetes-engine#1517; kubernetes/autoscaler#2288): a pool
created empty stays below ``min_nodes`` until pods wait for it. The google stand-in plans the
rendered root with the real schema and Terraform; what it cannot show is GKE creating the nodes
and the autoscaler later moving ``node_count`` (the provider's computed attribute, left unset
here so that move is no diff), and the provider's create-time refusal of initial_node_count
together with node_count (expandNodePool), which the module avoids by setting only one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpuplat.addresses import elements
from gpuplat.cost.planned import cost_delta
from gpuplat.spec.load import load_project
from gpuplat.targets.gke.infra import read_pool
from gpuplat.terraform.showplan import parse_plan
from tests.fidelity.test_offline_plan import _plan
from tests.support.cli import run as cli_run
from tests.support.golden import GOLDEN
from tests.support.specs import project
from tests.support.standin import build_stand_ins, run

pytestmark = pytest.mark.terraform

POOL = "module.pool_inference-us_l4-shared.google_container_node_pool.this"
SYSTEM = "module.cluster_inference-us.google_container_node_pool.system"


def test_pools_are_created_at_their_minimum(tmp_path: Path) -> None:
    # prod: 2..8 nodes over two zones, and a variant fixed at 2; dev: 0..2 (system pool 1..3).
    folder = project(tmp_path / "p")
    overlay = folder / "envs" / "prod.yaml"
    assert cli_run("render", cwd=folder).exit_code == 0, "render failed"
    prod = _plan(folder / "envs" / "prod" / "inference-us" / "infra")
    pool = prod[POOL]
    # The minimum of 2 over two zones: GKE creates 1 in each zone.
    assert pool["initial_node_count"] == 1
    (auto,) = pool["autoscaling"]
    assert (auto["total_min_node_count"], auto["total_max_node_count"]) == (2, 8)
    # The system pool's minimum of 1 over two zones: GKE creates 1 in each zone.
    assert prod[SYSTEM]["initial_node_count"] == 1

    text = overlay.read_text(encoding="utf-8")
    assert "max_nodes: 8 " in text
    overlay.write_text(text.replace("max_nodes: 8 ", "max_nodes: 2 "), encoding="utf-8")
    assert cli_run("render", cwd=folder).exit_code == 0, "render failed"
    fixed = _plan(folder / "envs" / "prod" / "inference-us" / "infra")[POOL]
    # A fixed pool (min = max), as cluster-toolkit's static_node_count: one node in each zone.
    assert fixed["node_count"] == 1
    assert fixed["autoscaling"] == []
    assert fixed.get("initial_node_count") is None

    dev = _plan(folder / "envs" / "dev" / "inference-us" / "infra")
    pool = dev[POOL]
    assert pool["initial_node_count"] == 0
    (auto,) = pool["autoscaling"]
    assert (auto["total_min_node_count"], auto["total_max_node_count"]) == (0, 2)
    assert "node_count" not in pool or pool["node_count"] is None


def test_a_warm_minimum_is_created(tmp_path: Path) -> None:
    # gke-h100-mig prod: the on-demand pool always keeps 1 of up to 2 nodes, in one zone.
    folder = tmp_path / "p"
    shutil.copytree(GOLDEN / "gke-h100-mig", folder, ignore=shutil.ignore_patterns(".terraform*"))
    prod = _plan(folder / "envs" / "prod" / "mig-central" / "infra")
    pool = prod["module.pool_mig-central_h100-mig.google_container_node_pool.this"]
    assert pool["initial_node_count"] == 1
    (auto,) = pool["autoscaling"]
    assert (auto["total_min_node_count"], auto["total_max_node_count"]) == (1, 2)
    spot = prod["module.pool_mig-central_h100-mig-spot.google_container_node_pool.this"]
    assert spot["initial_node_count"] == 0


def test_a_minimum_gke_cannot_create_is_refused(tmp_path: Path) -> None:
    # The old prod example: min = max = 1 over two zones would be 2 nodes, or none at all.
    folder = project(tmp_path / "p")
    overlay = folder / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    text = text.replace(
        "min_nodes: 2\n          max_nodes: 8 ", "min_nodes: 1\n          max_nodes: 1 "
    )
    overlay.write_text(text, encoding="utf-8")
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    text = text.replace(
        "    node_pools:\n",
        "    system_pool:\n      min_nodes: 1\n      max_nodes: 1\n    node_pools:\n",
        1,
    )
    spec.write_text(text, encoding="utf-8")
    done = cli_run("validate", cwd=folder)
    assert done.exit_code != 0
    assert (
        "pool min_nodes 1 over 2 zones: GKE creates nodes in equal numbers per zone, 1 in "
        "each, 2 in all, above max_nodes 1"
    ) in done.stderr
    assert "clusters[0].node_pools[0].autoscaling.min_nodes" in done.stderr
    assert "envs/prod.yaml:" in done.stderr
    assert "system pool min_nodes 1 over 2 zones" in done.stderr
    assert "clusters[0].system_pool.min_nodes" in done.stderr


def test_cost_counts_the_nodes_gke_creates(tmp_path: Path) -> None:
    """The cost floor and expected count what the plan makes GKE create, initial_node_count in
    each zone, not min_nodes as written: prod with a GPU pool of min 1 over two zones and the
    system pool's min 1 over the same two. e2-standard-4 0.13402 $/h x 2 nodes x 730 h =
    $195.67 a month; g2-standard-8 on-demand 0.85363 $/h x 2 x 730 = $1246.30. (The stand-in
    cannot show GKE's autoscaler keeping the second node: the GKE autoscaler docs do.)"""
    folder = project(tmp_path / "p")
    overlay = folder / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    assert "min_nodes: 2\n" in text
    overlay.write_text(text.replace("min_nodes: 2\n", "min_nodes: 1\n"), encoding="utf-8")
    assert cli_run("render", cwd=folder).exit_code == 0, "render failed"
    prod = _plan(folder / "envs" / "prod" / "inference-us" / "infra")
    zones = 2  # the example's us-central1-a and us-central1-c
    created = {
        "system": prod[SYSTEM]["initial_node_count"] * zones,  # type: ignore[operator]
        "l4-shared": prod[POOL]["initial_node_count"] * zones,  # type: ignore[operator]
    }
    assert created == {"system": 2, "l4-shared": 2}

    done = cli_run("cost", "prod", "--json", cwd=folder)
    assert done.exit_code == 0, done.stderr
    (cluster,) = json.loads(done.stdout)["environments"][0]["clusters"]
    system = cluster["system_pool"]
    assert system["min_nodes"] == created["system"]
    assert system["floor"]["usd_per_month"] == round(0.13402 * 2 * 730, 2) == 195.67
    (pool,) = cluster["pools"]
    assert pool["floor"]["nodes"] == pool["expected"]["nodes"] == created["l4-shared"]
    assert pool["floor"]["usd_per_month"] == round(0.85363 * 2 * 730, 2) == 1246.30
    text_report = cli_run("cost", "prod", cwd=folder).stdout
    assert "system e2-standard-4 on-demand 2..3" in " ".join(text_report.split())

    # The plan summary prices the same plan's floor from its values: the pools name no zones
    # of their own, so the cluster's two apply; it agrees with `cost` to the cent.
    infra = folder / "envs" / "prod" / "inference-us" / "infra"
    shown = run(build_stand_ins(), infra, "show", "-json", "infra.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr
    spec = load_project(folder, ["prod"]).envs["prod"].spec
    delta = cost_delta(parse_plan(shown.stdout), elements(spec), {"inference-us": "us-central1"})
    assert delta is not None
    # It prices node pools and fees; `cost`'s total also counts disks and network (its lines).
    env = json.loads(done.stdout)["environments"][0]
    floor = sum(
        c[part]["floor"]["usd_per_hour"] for c in env["clusters"] for part in ("gpu", "system_pool")
    ) + sum(c["fee"]["usd_per_hour"] for c in env["clusters"])
    assert round(delta.floor_after.usd_per_hour * 730, 2) == round(floor * 730, 2)


def test_a_planned_pool_counts_the_nodes_created_in_its_zones() -> None:
    """The plan summary reads a pool with its own zones as GKE creates it: 1 a zone over 2."""
    values = {
        "node_locations": ["us-central1-a", "us-central1-c"],
        "initial_node_count": 1,
        "autoscaling": [{"total_min_node_count": 1, "total_max_node_count": 4}],
        "node_config": [{"machine_type": "g2-standard-8"}],
    }
    pool = read_pool(values)
    assert pool is not None
    assert (pool.min_nodes, pool.max_nodes) == (2, 4)
