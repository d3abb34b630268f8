"""The cost delta in plan summaries: a pool added, spot -> on-demand, and a real EKS plan.

The GKE and the EKS capacity-change plans are `terraform show -json` documents (format 1.2)
written by hand in fixtures/: the google provider cannot run on this machine, and moto cannot
hold an applied node group steady enough to plan a capacity change against it (its answers make
every second plan replace the group, see tests/eks/test_moto.py). The plan that adds a pool is
a real one: terraform and the aws provider planning the EKS example against moto.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuplat.addresses import elements
from gpuplat.spec.load import load_project
from gpuplat.summary import summarize
from gpuplat.terraform import parse_plan
from tests.app.test_lifecycle import BUCKET, environment, gpuplat, make_project
from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups
from tests.support.moto import MotoServer, moto_server
from tests.support.specs import project

FIXTURES = Path(__file__).parent / "fixtures"
H = 730


def month(usd_per_hour: float) -> float:
    return round(usd_per_hour * H, 2)


def summary_of(tmp_path: Path, example: str, fixture: str, env: str = "prod"):  # type: ignore[no-untyped-def]
    root = project(tmp_path, example=example)
    spec = load_project(root, [env]).envs[env].spec
    plan = parse_plan((FIXTURES / fixture).read_text(encoding="utf-8"))
    regions = {c.name: c.region for c in spec.clusters}
    return summarize(env, "infra", plan, elements(spec), regions)


def test_a_plan_that_adds_a_pool(tmp_path: Path) -> None:
    summary = summary_of(tmp_path, "gke-l4-vllm", "gke-add-pool.json")
    assert summary.cost is not None
    # Before: l4-shared, spot g2-standard-8 0..2, at most 40 % of on-demand (0.34145 $/h: GCE
    # spot is always 60-91 % off). The plan adds l4-extra,
    # on-demand g2-standard-8 (0.85363 $/h) 1..4; it is not in the spec, so its region comes
    # from its own location (us-central1).
    before_max = 2 * 0.34145
    after_min, after_max = 0.85363, before_max + 4 * 0.85363
    assert summary.cost.floor_before.usd_per_hour == 0
    assert summary.cost.floor_after.usd_per_hour == pytest.approx(after_min)
    assert summary.cost.ceiling_before.usd_per_hour == pytest.approx(before_max)
    assert summary.cost.ceiling_after.usd_per_hour == pytest.approx(after_max)
    assert (month(after_min), month(before_max), month(after_max)) == (623.15, 498.52, 2991.12)
    assert summary.lines()[-1] == (
        "    cost/month at min: $0.00 -> $623.15 (+$623.15); "
        "at max: $498.52 -> $2,991.12 (+$2,492.60)"
    )
    json_cost = summary.to_json()["cost"]
    assert json_cost["ceiling_after"]["usd_per_month"] == 2991.12  # type: ignore[index]


def test_a_plan_that_switches_spot_to_on_demand_on_gke(tmp_path: Path) -> None:
    summary = summary_of(tmp_path, "gke-l4-vllm", "gke-spot-to-on-demand.json")
    assert summary.cost is not None
    # 0..4 nodes of g2-standard-8: spot at most 0.34145 -> on-demand 0.85363 $/h.
    assert (month(4 * 0.34145), month(4 * 0.85363)) == (997.03, 2492.60)
    assert summary.cost.text() == (
        "cost/month at min: $0.00 -> $0.00; at max: $997.03 -> $2,492.60 (+$1,495.57)"
    )
    assert summary.elements[0].reasons == [
        "google_container_node_pool.this: node_config.0.spot forces replacement"
    ]


def test_a_plan_that_switches_spot_to_on_demand_on_eks(tmp_path: Path) -> None:
    summary = summary_of(tmp_path, "eks-l4-vllm", "eks-spot-to-on-demand.json")
    assert summary.cost is not None
    # 1..3 nodes of g4dn.xlarge: spot 0.1824 -> on-demand 0.526 $/h (us-east-1).
    assert (month(0.1824), month(3 * 0.1824), month(0.526), month(3 * 0.526)) == (
        133.15,
        399.46,
        383.98,
        1151.94,
    )
    assert summary.cost.text() == (
        "cost/month at min: $133.15 -> $383.98 (+$250.83); at max: $399.46 -> $1,151.94 (+$752.48)"
    )


def test_unknown_prices_make_the_delta_partial(tmp_path: Path) -> None:
    """g6.xlarge has no spot figure: 1 spot node at min is unknown ("?"), but 3 at max cost at
    most on-demand, 3 x 0.8048 x 730 h = $1,762.51 (spot is never billed above on-demand)."""
    root = project(tmp_path, example="eks-l4-vllm")
    spec = load_project(root, ["dev"]).envs["dev"].spec
    text = (FIXTURES / "eks-spot-to-on-demand.json").read_text(encoding="utf-8")
    plan = parse_plan(text.replace("g4dn.xlarge", "g6.xlarge"))
    summary = summarize("dev", "infra", plan, elements(spec), {"inference-use1": "us-east-1"})
    assert summary.cost is not None
    assert summary.cost.text() == (
        "cost/month at min: ? -> $587.50 (+$587.50?); at max: $1,762.51 -> $1,762.51"
    )
    assert summary.lines()[-1].startswith("      ? no spot price for g6.xlarge in the catalog")


@pytest.fixture
def moto() -> Iterator[MotoServer]:
    import urllib.request

    with aws_managed_policies(), node_groups_own_autoscaling_groups(), moto_server() as server:
        urllib.request.urlopen(
            urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
        ).close()
        server.create_bucket(BUCKET)
        yield server


@pytest.mark.terraform
@pytest.mark.integration
def test_a_real_eks_plan_that_adds_a_pool(moto: MotoServer, tmp_path: Path) -> None:
    env = environment(tmp_path)
    root = make_project(tmp_path / "p", moto.endpoint)
    planned = gpuplat("-C", str(root), "plan", "prod", "--stage", "infra", env=env)
    assert planned.returncode == 10, planned.stderr
    # Everything is new: the EKS fee (0.10 $/h), the system group (m6i.large 0.096 $/h, 1..3)
    # and l4-shared (g6.xlarge on-demand 0.8048 $/h, 1..8), their boot disks (gp3 0.08
    # $/GB-month: 200 GB a GPU node, 50 GB a system node) and prod's three NAT gateways with
    # their addresses (0.045 + 0.005 $/h each): the figure `gpuplat cost prod` prints.
    disks_floor = (200 + 50) * 0.08 / H
    disks_ceiling = (8 * 200 + 3 * 50) * 0.08 / H
    nat = 3 * (0.045 + 0.005)
    floor = 0.10 + 0.096 + 0.8048 + disks_floor + nat
    ceiling = 0.10 + 3 * 0.096 + 8 * 0.8048 + disks_ceiling + nat
    assert (month(floor), month(ceiling)) == (860.08, 5232.77)
    assert (
        "    cost/month at min: $0.00 -> $860.08 (+$860.08); at max: $0.00 -> $5,232.77 "
        "(+$5,232.77)\n" in planned.stdout
    ), planned.stdout
    assert "      not counted: traffic: nat gateway data processing" in planned.stdout
