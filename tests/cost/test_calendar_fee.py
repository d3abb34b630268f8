"""The control-plane fee follows the support calendar: EKS bills its extended fee while the
cluster's minor is in extended support, on the day asked about (the spec's cost and a plan's)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from gpuplat import catalog
from gpuplat.cost.estimate import estimate
from gpuplat.cost.planned import cost_delta
from gpuplat.spec.load import load_project
from gpuplat.terraform import parse_plan
from tests.app.test_summary import change, plan_text
from tests.support.cli import run
from tests.support.specs import project

EKS_VERSION = '      version: "1.35"\n'
STANDARD, EXTENDED = 0.10, 0.60
"""EKS per cluster and hour (pricing.yaml), restated so a change of the data file shows here."""


def fee(tmp_path: Path, minor: str, on: date) -> float | None:
    folder = project(tmp_path, ((EKS_VERSION, f'      version: "{minor}"\n'),), "eks-l4-vllm")
    spec = load_project(folder, today=on).envs["dev"].spec
    return estimate("dev", spec, on).clusters[0].fee.usd_per_hour


def test_the_catalog_fees_are_the_ones_restated_here() -> None:
    standard, extended = catalog.cluster_fee("eks"), catalog.cluster_fee("eks", "extended")
    assert standard is not None and extended is not None
    assert (standard.usd_per_hour, extended.usd_per_hour) == (STANDARD, EXTENDED)


@pytest.mark.parametrize(
    ("minor", "on", "expected"),
    [
        ("1.33", date(2026, 7, 28), STANDARD),
        ("1.33", date(2026, 7, 29), EXTENDED),  # end of standard support: extended from 00:00 UTC
        ("1.34", date(2026, 12, 1), STANDARD),
        ("1.34", date(2026, 12, 2), EXTENDED),
        ("1.35", date(2026, 12, 2), STANDARD),
    ],
)
def test_eks_fee_on_a_day(tmp_path: Path, minor: str, on: date, expected: float) -> None:
    assert fee(tmp_path, minor, on) == expected


def test_cost_report_names_the_extended_tier(tmp_path: Path) -> None:
    folder = project(tmp_path, ((EKS_VERSION, '      version: "1.33"\n'),), "eks-l4-vllm")
    done = run("cost", "--json", cwd=folder)
    assert done.exit_code == 0, done.stderr
    text = json.dumps(json.loads(done.stdout))
    assert '"usd_per_hour": 0.6' in text
    assert "extended tier" in text
    table = run("cost", "dev", cwd=folder).stdout
    assert "cluster fee (extended)" in table
    assert "$438.00" in table  # 0.60 x 730 h


def test_a_planned_cluster_in_extended_support_costs_the_extended_fee() -> None:
    def cluster(version: str) -> str:
        return plan_text(
            [
                change(
                    "module.cluster_inference-use1.aws_eks_cluster.this",
                    "aws_eks_cluster",
                    ["create"],
                    None,
                    {"name": "inference-use1", "version": version},
                )
            ]
        )

    hours = {
        version: cost_delta(parse_plan(cluster(version)), {}, {}, date(2026, 12, 2))
        for version in ("1.33", "1.35")
    }
    assert hours["1.33"] is not None and hours["1.35"] is not None
    assert hours["1.33"].floor_after.usd_per_hour == pytest.approx(EXTENDED)
    assert hours["1.35"].floor_after.usd_per_hour == pytest.approx(STANDARD)


def test_gke_extended_channel_fee_is_priced_unverified_while_in_extended_support(
    tmp_path: Path,
) -> None:
    """GKE's pricing page says an Extended-channel cluster pays an additional management fee
    while its minor is in extended support, without a figure in the copy read; two third-party
    pages give the total as 0.60 $/h (six times the standard 0.10: chkk.io, July 2024, and
    cloudyali.io, 2025-06-09). So the fee is priced at 0.60 and marked unverified."""
    channel = "      release_channel: REGULAR\n"
    folder = project(
        tmp_path, ((channel, '      release_channel: EXTENDED\n      version: "1.33"\n'),)
    )
    spec = load_project(folder).envs["dev"].spec
    extended = estimate("dev", spec, date(2026, 12, 2)).clusters[0].fee
    assert (extended.usd_per_hour, extended.unverified, extended.unknown) == (0.60, True, None)
    assert extended.source == "chkk_gke_extended_support"
    assert extended.note is not None and "cloudyali_extended_support" in extended.note
    standard = estimate("dev", spec, date(2026, 8, 2)).clusters[0].fee
    assert standard.usd_per_hour == STANDARD
    # 730 h at 0.60: $438.00 a month for the fee alone, $365.00 more than standard support.
    assert round(0.60 * 730, 2) == 438.00


@pytest.mark.parametrize(("tier", "expected"), [("Free", 0.0), ("Standard", 0.10), (None, 0.0)])
def test_a_planned_aks_cluster_costs_its_tier(tier: str | None, expected: float) -> None:
    """An AKS cluster's fee follows its sku_tier: Free costs nothing (no SLA), Standard (the
    uptime SLA) 0.10 USD an hour (pricing.yaml). No Azure emulator exists: the plan is written
    by hand in the `terraform show -json` format."""
    values: dict[str, object] = {"name": "inference-eus"}
    if tier is not None:
        values["sku_tier"] = tier
    plan = plan_text(
        [
            change(
                "module.cluster_inference-eus.azurerm_kubernetes_cluster.this",
                "azurerm_kubernetes_cluster",
                ["create"],
                None,
                values,
            )
        ]
    )
    delta = cost_delta(parse_plan(plan), {}, {}, date(2026, 12, 2))
    assert delta is not None
    assert delta.floor_after.usd_per_hour == pytest.approx(expected)
    assert not delta.floor_after.partial
