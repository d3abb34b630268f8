"""Worked examples: each example spec's cost at floor and ceiling, computed here by hand.

The per-node prices are restated from the catalog data files (and checked against them first, so
a catalog change fails here with the price that moved, not with a sum): every figure below is
that price x nodes x 730 h, rounded to cents only at the end, as `gpuplat cost` does.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from gpuplat import catalog
from gpuplat.cost.schema import cost_schema_text
from tests.support.cli import run
from tests.support.specs import project

H = 730
# USD per node-hour, from src/gpuplat/catalog/data/{gke,ec2,pricing}.yaml.
G2_STANDARD_8 = {"on-demand": 0.85363, "spot": 0.34057}  # us-central1
GCE_SPOT_MOST = 0.4
"""GCE spot is always 60-91 % off on-demand: ceilings are priced at 40 % of it (pricing.yaml)."""


def gce_spot_ceiling(on_demand: float) -> float:
    return round(on_demand * GCE_SPOT_MOST, 5)


A3_HIGHGPU_8G = {"on-demand": 88.49, "spot": 20.19947}  # us-central1; Cloud Billing Catalog SKUs
G6_XLARGE = {"on-demand": 0.8048, "spot": None}  # us-east-1; no spot price recorded
E2_STANDARD_4 = 0.13402  # GKE system pool
M6I_LARGE = 0.096  # EKS system pool
D4S_V5 = 0.192  # AKS system pool, eastus
NC24ADS_A100_V4 = {"on-demand": 3.673, "spot": 0.444433}  # eastus
FEE = {"gke": 0.10, "eks": 0.10}


def test_the_prices_used_here_are_the_catalogs() -> None:
    def prices(cloud: catalog.Cloud, name: str) -> dict[str, float | None]:
        shape = catalog.shape(cloud, name)
        assert shape is not None
        return {
            "on-demand": shape.price_on_demand.usd_per_hour if shape.price_on_demand else None,
            "spot": shape.price_spot.usd_per_hour if shape.price_spot else None,
        }

    assert prices("gke", "g2-standard-8") == G2_STANDARD_8
    assert prices("gke", "a3-highgpu-8g") == A3_HIGHGPU_8G
    assert prices("eks", "g6.xlarge") == G6_XLARGE
    assert prices("aks", "Standard_NC24ads_A100_v4") == NC24ADS_A100_V4
    gke_system, eks_system = catalog.system_shape("gke"), catalog.system_shape("eks")
    assert gke_system is not None and gke_system.price_on_demand is not None
    assert eks_system is not None and eks_system.price_on_demand is not None
    assert gke_system.price_on_demand.usd_per_hour == E2_STANDARD_4
    assert eks_system.price_on_demand.usd_per_hour == M6I_LARGE
    aks_system = catalog.system_shape("aks")
    assert aks_system is not None and aks_system.price_on_demand is not None
    assert aks_system.price_on_demand.usd_per_hour == D4S_V5
    for cloud, fee in FEE.items():
        found = catalog.cluster_fee(cloud)  # type: ignore[arg-type]
        assert found is not None and found.usd_per_hour == fee


def report(tmp_path: Path, example: str) -> dict[str, dict[str, object]]:
    root = project(tmp_path, example=example)
    done = run("cost", "--json", cwd=root)
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    jsonschema.validate(data, json.loads(cost_schema_text()))
    return {env["name"]: env for env in data["environments"]}


def month(usd_per_hour: float) -> float:
    return round(usd_per_hour * H, 2)


def figures(env: dict[str, object], level: str) -> tuple[object, object, object]:
    """GPUs, GPU pools' cost and nodes + fees (GPU pools, system pools, cluster fees) a month.

    The total beside them also counts disks and network (`lines`, worked in test_lines.py)."""
    gpu = env["gpu"][level]  # type: ignore[index]
    clusters = env["clusters"]
    assert isinstance(clusters, list)
    hourly = sum(
        c["gpu"][level]["usd_per_hour"]
        + c["system_pool"][level]["usd_per_hour"]
        + c["fee"]["usd_per_hour"]
        for c in clusters
    )
    lines = sum(line[level]["usd_per_hour"] for c in clusters for line in c["lines"])
    total = env["total"][level]["usd_per_hour"]  # type: ignore[index]
    assert abs(total - hourly - lines) < 1e-4, "the total is nodes, fees and the other lines"
    return gpu["gpus"], gpu["usd_per_month"], month(hourly)


def test_gke_l4_vllm(tmp_path: Path) -> None:
    envs = report(tmp_path, "gke-l4-vllm")
    # dev: l4-shared spot 0..2 nodes of 1 L4; system 1..3 x e2-standard-4; one GKE fee.
    # GKE creates a pool's minimum as the same count in every zone, ceil(1 / 2) = 1 in each of
    # the cluster's 2 zones: the system pool runs 2 nodes at the floor, not 1 (issue: cost
    # counted 1). 0.13402 $/h x 2 nodes x 730 h = 195.67; with the fee 268.67.
    assert figures(envs["dev"], "floor") == (0, 0.0, month(FEE["gke"] + 2 * E2_STANDARD_4))
    assert month(2 * E2_STANDARD_4) == 195.67
    assert month(FEE["gke"] + 2 * E2_STANDARD_4) == 268.67
    # The spot ceiling is its published bound, 40 % of on-demand: 0.34145, not the 0.34057
    # read when the catalog was.
    ceiling = 2 * gce_spot_ceiling(G2_STANDARD_8["on-demand"])  # type: ignore[arg-type]
    assert figures(envs["dev"], "ceiling") == (
        2,
        month(ceiling),
        month(ceiling + FEE["gke"] + 3 * E2_STANDARD_4),
    )
    assert (month(ceiling), month(ceiling + 0.1 + 3 * E2_STANDARD_4)) == (498.52, 865.02)
    # prod: on-demand, 2..8 nodes (at least one a zone) for 2..16 replicas on 2 time-sliced
    # slices a node.
    node = G2_STANDARD_8["on-demand"]
    assert figures(envs["prod"], "floor") == (
        2,
        month(2 * node),
        month(2 * node + 0.1 + 2 * E2_STANDARD_4),
    )
    assert figures(envs["prod"], "ceiling") == (
        8,
        month(8 * node),
        month(8 * node + 0.1 + 3 * E2_STANDARD_4),
    )
    assert (month(2 * node), month(8 * node)) == (1246.30, 4985.20)
    # expected: 2 replicas x 1 slice on nodes of 2 slices = 1 node; min_nodes keeps 2.
    assert envs["prod"]["gpu"]["expected"]["nodes"] == 2  # type: ignore[index]
    pool = envs["prod"]["clusters"][0]["pools"][0]  # type: ignore[index]
    assert pool["rungs"][0]["source"] == "skypilot_catalog_gcp_v7"
    assert envs["prod"]["by_capacity"]["on-demand"]["ceiling"]["usd_per_month"] == 4985.2  # type: ignore[index]


def test_gke_h100_mig(tmp_path: Path) -> None:
    envs = report(tmp_path, "gke-h100-mig")
    od = A3_HIGHGPU_8G["on-demand"]
    spot = gce_spot_ceiling(od)  # at the ceiling: 40 % of 88.49 = 35.396
    # dev: h100-mig on-demand 0..1, h100-mig-spot 0..1, 8 H100 a node.
    assert figures(envs["dev"], "floor")[:2] == (0, 0.0)
    assert figures(envs["dev"], "ceiling")[:2] == (16, month(od + spot))
    assert month(od + spot) == 90436.78
    # expected: coder's 1 replica needs one on-demand node (the preferred pool).
    assert envs["dev"]["gpu"]["expected"]["usd_per_month"] == month(od) == 64597.70  # type: ignore[index]
    # prod: on-demand 1..2, spot 0..2 (one a zone).
    assert figures(envs["prod"], "floor")[:2] == (8, month(od))
    assert figures(envs["prod"], "ceiling")[:2] == (32, month(2 * od + 2 * spot))
    assert month(2 * od + 2 * spot) == 180873.56
    rung = envs["prod"]["clusters"][0]["pools"][0]["rungs"][0]  # type: ignore[index]
    assert rung["unverified"] is False, "confirmed by two public sources"
    assert rung["as_of"] == "2026-09-26"


def test_aks_a100_vllm_with_its_system_pool_priced(tmp_path: Path) -> None:
    envs = report(tmp_path, "aks-a100-vllm")
    od, spot = NC24ADS_A100_V4["on-demand"], NC24ADS_A100_V4["spot"]
    # dev: a100mig spot 0..2, one A100 (seen as MIG slices) a node.
    assert figures(envs["dev"], "floor")[:2] == (0, 0.0)
    assert figures(envs["dev"], "ceiling")[:2] == (2, month(2 * spot))
    assert month(2 * spot) == 648.87
    # prod: on-demand 1..8.
    assert figures(envs["prod"], "floor")[:2] == (1, month(od))
    assert figures(envs["prod"], "ceiling")[:2] == (8, month(8 * od))
    assert (month(od), month(8 * od)) == (2681.29, 21450.32)
    # The default system shape is priced (Standard_D4s_v5, 0.192 $/h in eastus), the Free
    # tier's fee is 0: 8 x 3.673 + 3 x 0.192 = 29.96 $/h, $21,870.80 a month, not partial
    # (disks and the load balancer beside them: test_lines.py).
    assert figures(envs["prod"], "ceiling")[2] == month(8 * od + 3 * D4S_V5) == 21870.80
    assert envs["prod"]["total"]["ceiling"]["partial"] is False  # type: ignore[index]


def test_eks_l4_vllm_spot_price_unknown_is_bounded_by_on_demand(tmp_path: Path) -> None:
    envs = report(tmp_path, "eks-l4-vllm")
    dev = envs["dev"]
    # dev: l4-shared spot 0..2: no node at the floor costs exactly 0 whatever the price.
    assert dev["gpu"]["floor"] == {  # type: ignore[index]
        "nodes": 0,
        "gpus": 0,
        "usd_per_hour": 0.0,
        "usd_per_month": 0.0,
        "partial": False,
        "unknown": [],
    }
    # No spot figure for g6.xlarge, but EC2 never bills spot above on-demand: the ceiling is
    # at most 2 x 0.8048 x 730 h = $1,175.01, a bound, not "?".
    od = G6_XLARGE["on-demand"]
    assert od is not None
    ceiling = dev["gpu"]["ceiling"]  # type: ignore[index]
    assert (ceiling["usd_per_month"], ceiling["partial"]) == (month(2 * od), False)
    assert month(2 * od) == 1175.01
    pool = dev["clusters"][0]["pools"][0]  # type: ignore[index]
    assert pool["rungs"][0]["usd_per_hour"] is None
    assert pool["ceiling_rungs"][0]["usd_per_hour"] == od
    assert "at most the on-demand price" in pool["ceiling_rungs"][0]["note"]
    assert figures(dev, "ceiling")[2] == month(2 * od + 0.1 + 3 * M6I_LARGE)
    assert dev["total"]["ceiling"]["partial"] is False  # type: ignore[index]
    # prod: on-demand 1..8 of 0.8048.
    floor, ceiling_rate = G6_XLARGE["on-demand"], 8 * G6_XLARGE["on-demand"]  # type: ignore[operator]
    assert figures(envs["prod"], "floor") == (1, month(floor), month(floor + 0.1 + M6I_LARGE))  # type: ignore[arg-type]
    assert figures(envs["prod"], "ceiling") == (
        8,
        month(ceiling_rate),
        month(ceiling_rate + 0.1 + 3 * M6I_LARGE),
    )
    assert (month(floor), month(ceiling_rate)) == (587.50, 4700.03)  # type: ignore[arg-type]


def test_table_marks_unknown_prices(tmp_path: Path) -> None:
    root = project(tmp_path, example="eks-l4-vllm")
    done = run("cost", "dev", cwd=root)
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Cost of dev (USD, list prices, 730 h/month):"
    pool = next(line for line in lines if "l4-shared g6.xlarge" in line)
    # The rate is unknown; the ceiling is bounded by on-demand, and marked so.
    assert pool.split()[-4:] == ["?", "$0.00", "$0.00", "$1,175.01^"]
    assert lines[-1].startswith("^ spot price bounded: the ceiling is the most spot can cost")
    assert any(
        line.startswith("Priced from gpuplat's shipped catalog (read 2026-11-30)") for line in lines
    )


def test_what_is_not_counted_is_said(tmp_path: Path) -> None:
    """What the bill holds and gpuplat cannot count (traffic) is named per cluster, in the
    table and JSON; boot disks, once named here, are priced now (test_lines.py)."""
    envs = report(tmp_path / "json", "gke-l4-vllm")
    lines = envs["prod"]["clusters"][0]["not_counted"]  # type: ignore[index]
    assert lines == [
        "traffic: nat gateway data processing at 0.045 $/GB, egress to the internet and "
        "between zones (usage-dependent)"
    ]
    table = run("cost", "prod", cwd=project(tmp_path / "t")).stdout.splitlines()
    assert "  not counted in these totals:" in table
    assert "    boot disks l4-shared (200 GB pd-balanced)" in " ".join(table)


def test_the_nc24ads_spot_figure_is_marked_unverified(tmp_path: Path) -> None:
    """Standard_NC24ads_A100_v4 spot (0.444433 $/h in eastus) has one source of unknown date
    and no recorded Azure Retail Prices answer confirming it: aks-a100-vllm dev's spot pool
    says so, with the reason, while the on-demand figure (two sources) stays confirmed."""
    envs = report(tmp_path, "aks-a100-vllm")
    dev = envs["dev"]["clusters"][0]["pools"][0]  # type: ignore[index]
    assert (dev["capacity"], dev["unverified"]) == ("spot", True)
    assert "Azure Retail Prices" in dev["rungs"][0]["note"]
    prod = envs["prod"]["clusters"][0]["pools"][0]  # type: ignore[index]
    assert (prod["capacity"], prod["unverified"]) == ("on-demand", False)


def test_an_unverified_price_is_marked_wherever_it_is_shown(tmp_path: Path) -> None:
    """a2-ultragpu-1g's on-demand figure has one public source: the table marks the pool's
    amounts with *, the JSON says unverified on the pool, and the picture says so."""
    root = project(
        tmp_path,
        (
            (
                "        machine_type: g2-standard-8 # 1x NVIDIA L4 (24 GB), 8 vCPU, 32 GiB\n",
                "        machine_type: a2-ultragpu-1g\n",
            ),
            (
                "        capacity:\n          type: spot\n",
                "        capacity:\n          type: on-demand\n",
            ),
        ),
    )
    done = run("cost", "dev", cwd=root)
    assert done.exit_code == 0, done.stderr
    pool = next(line for line in done.stdout.splitlines() if "a2-ultragpu-1g" in line)
    # 2 nodes x 5.0688 $/h x 730 h = $7,400.45 at the ceiling.
    assert pool.split()[-1] == "$7,400.45*"
    assert "* unverified price" in done.stdout
    data = json.loads(run("cost", "dev", "--json", cwd=root).stdout)
    assert data["environments"][0]["clusters"][0]["pools"][0]["unverified"] is True
    picture = run("graph", "dev", cwd=root).stdout
    assert "$7,400.45 ceiling a month (unverified price)" in picture


@pytest.mark.parametrize("example", ["gke-l4-vllm", "gke-h100-mig", "eks-l4-vllm"])
def test_report_is_deterministic(tmp_path: Path, example: str) -> None:
    root = project(tmp_path, example=example)
    first, second = run("cost", "--json", cwd=root), run("cost", "--json", cwd=root)
    assert first.stdout == second.stdout and first.exit_code == 0


def test_unknown_environment_is_an_error(tmp_path: Path) -> None:
    root = project(tmp_path)
    done = run("cost", "staging", cwd=root)
    assert done.exit_code == 1
    assert done.stderr.startswith("Error: unknown environment 'staging'")


def test_schema_command_prints_the_cost_schema() -> None:
    done = run("schema", "--cost")
    assert done.exit_code == 0
    schema = json.loads(done.stdout)
    assert schema["title"] == "gpuplat cost report"
    jsonschema.Draft202012Validator.check_schema(schema)
