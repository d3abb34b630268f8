"""`plan`'s cost summary is `cost`'s figure, for every example and environment.

Each example's infra root is planned for real from nothing: GKE and AKS through the
schema-serving stand-ins (local state, no cloud), EKS by terraform and the real aws provider
against moto. The summary of that plan prices the cluster as `gpuplat cost` does: node pools and
fee from the plan's values, disks, local SSDs, NAT, load balancer and public IPv4 by the same
``cluster_lines`` at the plan's node counts. After the plan, its floor and ceiling are the
cluster's floor and ceiling in the cost report to the cent, and it names what is not counted
in the same words.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuplat.addresses import elements
from gpuplat.cost.estimate import estimate
from gpuplat.cost.planned import billed
from gpuplat.spec.load import load_project
from gpuplat.summary import summarize
from gpuplat.terraform.showplan import parse_plan
from tests.app.test_lifecycle import BUCKET, environment, gpuplat, make_project
from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups
from tests.support.golden import GOLDEN
from tests.support.moto import MotoServer, moto_server
from tests.support.standin import RECORD_ENV, build_stand_ins, run

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

OFFLINE = [
    (example, env)
    for example in ("gke-l4-vllm", "gke-h100-mig", "aks-a100-vllm")
    for env in ("dev", "prod")
]


@pytest.mark.parametrize(("example", "env"), OFFLINE)
def test_plan_prices_what_cost_prices(example: str, env: str, tmp_path: Path) -> None:
    project = tmp_path / example
    shutil.copytree(GOLDEN / example, project, ignore=shutil.ignore_patterns(".terraform*"))
    (root,) = (project / "envs" / env).glob("*/infra")
    (root / "backend.tf").write_text("# local state for an offline plan\n", encoding="utf-8")
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=infra.tfplan")):
        done = run(cli, root, *args, timeout=600, env=RECORD_ENV)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, root, "show", "-json", "infra.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr

    spec = load_project(project, [env]).envs[env].spec
    (cluster,) = spec.clusters
    regions = {c.name: c.region for c in spec.clusters}
    bill = billed(spec, env, cluster.name)
    summary = summarize(env, "infra", parse_plan(shown.stdout), elements(spec), regions, bill=bill)
    assert summary.cost is not None
    (priced,) = estimate(env, spec).clusters
    # Nothing exists before: the whole bill is the plan's.
    assert summary.cost.floor_before.usd_per_hour == summary.cost.ceiling_before.usd_per_hour == 0
    for level, after in (
        ("floor", summary.cost.floor_after),
        ("ceiling", summary.cost.ceiling_after),
    ):
        # To the cent (the sums add the same amounts in another order).
        cents = pytest.approx(priced.total(level).usd_per_month, abs=0.005)
        assert after.usd_per_month == cents, (level, summary.lines())
        assert after.unknown == priced.total(level).unknown
    assert summary.cost.not_counted == priced.not_counted
    assert priced.lines, "the cluster has a bill beside nodes and fee"
    assert "      not counted: " + "; ".join(priced.not_counted) in summary.lines()


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    import urllib.request

    with aws_managed_policies(), node_groups_own_autoscaling_groups(), moto_server() as server:
        urllib.request.urlopen(
            urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
        ).close()
        server.create_bucket(BUCKET)
        yield server


@pytest.mark.parametrize("env", ["dev", "prod"])
def test_an_eks_plan_prices_what_cost_prices(moto: MotoServer, env: str, tmp_path: Path) -> None:
    shell = environment(tmp_path)
    root = make_project(tmp_path / "p", moto.endpoint)
    planned = gpuplat("-C", str(root), "plan", env, "--stage", "infra", "--json", env=shell)
    assert planned.returncode == 10, planned.stderr
    ((stage,),) = [p["stages"] for p in json.loads(planned.stdout)]
    costed = gpuplat("-C", str(root), "cost", env, "--json", env=shell)
    assert costed.returncode == 0, costed.stderr
    (cluster,) = json.loads(costed.stdout)["environments"][0]["clusters"]
    for level in ("floor", "ceiling"):
        assert stage["cost"][f"{level}_after"] == cluster["total"][level], level
    assert stage["cost"]["not_counted"] == cluster["not_counted"]
    # NAT gateways are on the bill: one in dev, one a zone in prod.
    assert any(line["name"].startswith("NAT gateways") for line in cluster["lines"])
