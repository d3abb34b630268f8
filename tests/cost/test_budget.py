"""Monthly GPU budgets: validate warns at the budget and the pools that drive the ceiling."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import run
from tests.support.specs import GKE_LADDER_PATCH, project, scaled_prod

BUDGET = (
    (
        "  - name: prod\n    backend:\n",
        "  - name: prod\n    budget:\n      gpu_monthly_usd: 4000\n    backend:\n",
    ),
)


def test_over_budget_warns_at_the_budget_and_the_pool(tmp_path: Path) -> None:
    root = scaled_prod(project(tmp_path, BUDGET))
    done = run("validate", cwd=root)
    assert done.exit_code == 0, done.stderr
    lines = done.stderr.splitlines()
    # 8 x g2-standard-8 on-demand (0.85363 $/h) x 730 h = $4,985.20 > $4,000.
    assert lines[:4] == [
        "Warning: the GPU pools of prod can cost $4,985.20/month at their ceiling, "
        "$985.20 over its budget of $4,000.00",
        "  gpuplat.yaml:77:24  environments[1].budget.gpu_monthly_usd  (in prod)",
        "  envs/prod.yaml:15:22  clusters[0].node_pools[0].autoscaling.max_nodes  "
        "(inference-us/l4-shared: 8 x g2-standard-8 (on-demand) = $4,985.20/month at the "
        "ceiling)",
        "Hint: lower max_nodes of the pools named here, move them to spot, or raise the budget",
    ]
    strict = run("validate", "--strict", cwd=root)
    assert strict.exit_code == 4
    data = json.loads(run("validate", "--json", cwd=root).stdout)
    related = data["diagnostics"][0]["related"]
    assert [(r["file"], r["line"], r["path"]) for r in related] == [
        ("envs/prod.yaml", 15, "clusters[0].node_pools[0].autoscaling.max_nodes")
    ]


def test_within_budget_is_silent_and_reported_by_cost(tmp_path: Path) -> None:
    root = scaled_prod(project(tmp_path, ((BUDGET[0][0], BUDGET[0][1].replace("4000", "5000")),)))
    done = run("validate", "--strict", cwd=root)
    assert done.exit_code == 0, done.stderr
    assert "Warning" not in done.stderr
    budget = json.loads(run("cost", "prod", "--json", cwd=root).stdout)["environments"][0]["budget"]
    assert budget == {
        "gpu_monthly_usd": 5000.0,
        "ceiling_usd_per_month": 4985.2,
        "over": False,
        "partial": False,
        "verdict": "within",
        "unknown": [],
    }
    table = run("cost", "prod", cwd=root).stdout
    assert "  GPU budget $5,000.00/month: ceiling $4,985.20 is within it" in table


def test_a_budget_must_be_positive(tmp_path: Path) -> None:
    root = project(tmp_path, ((BUDGET[0][0], BUDGET[0][1].replace("4000", "0")),))
    done = run("validate", cwd=root)
    assert done.exit_code == 4
    assert "environments[1].budget.gpu_monthly_usd" in done.stderr


DEV_BUDGET = (
    "  - name: dev\n    backend:\n",
    "  - name: dev\n    budget:\n      gpu_monthly_usd: 1000000\n    backend:\n",
)


def test_a_partly_unknown_ceiling_is_never_within_a_budget(tmp_path: Path) -> None:
    """A ladder with a flex-start rung (no per-shape figure in the catalog) under a budget its
    known part is far within: the ceiling is a lower bound, so validate warns (fails under
    --strict) naming what is unknown, and cost does not call it within the budget."""
    root = project(tmp_path, (*GKE_LADDER_PATCH, DEV_BUDGET))
    done = run("validate", cwd=root)
    assert done.exit_code == 0, done.stderr
    warning = next(line for line in done.stderr.splitlines() if "budget" in line)
    assert "not known to be within its budget of $1,000,000.00" in warning
    assert "flex-start" in warning
    assert run("validate", "--strict", cwd=root).exit_code == 4
    table = run("cost", "dev", cwd=root).stdout
    assert "is within it" not in table
    assert "is not known to be within it" in table
    budget = json.loads(run("cost", "dev", "--json", cwd=root).stdout)["environments"][0]["budget"]
    assert budget["verdict"] == "unknown" and budget["partial"] is True
    assert any("flex-start" in reason for reason in budget["unknown"])
