"""The instances that opened the support calendar, through the CLI only (what a user runs), on
the test day 2026-12-02 (tests/conftest.py):

- AKS no longer creates 1.33 or 1.34 clusters (their end of life: July and November 2026);
- EKS 1.33 is in extended support since 2026-07-29: $0.60 per cluster and hour, not $0.10;
- the EFA device plugin chart must list the p5en / p6 instance types gpuplat renders EFA pools
  for (v0.5.5 of 2024 lists none of them);
- the cluster autoscaler chart must ship the autoscaler of the cluster's minor (9.51.0 ships
  1.33.0, whatever the cluster runs).

The chart facts below are restated by hand from the charts' Helm repositories (aws/eks-charts
gh-pages archives, kubernetes/autoscaler gh-pages index.yaml), not read from gpuplat's data.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.specs import project

EFA_FIRST_LISTED = {"p5en.48xlarge": (0, 5, 6), "p6-b200.48xlarge": (0, 5, 10)}
"""The first aws-efa-k8s-device-plugin chart whose values.yaml lists each type."""
AUTOSCALER_APP = {"9.51.0": "1.33", "9.53.0": "1.34", "9.59.0": "1.35"}
"""cluster-autoscaler chart version -> the autoscaler minor it ships (appVersion)."""


def chart_version(folder: Path, cluster: str, chart: str) -> str:
    """The version the rendered dev platform root pins for a chart."""
    text = (folder / "envs" / "dev" / cluster / "platform" / "main.tf").read_text()
    found = re.search(rf"{re.escape(chart)} = \{{[^}}]*?version\s*=\s*\"([^\"]+)\"", text)
    assert found is not None, text
    return found.group(1)


@pytest.mark.parametrize("minor", ["1.33", "1.34"])
def test_aks_minors_past_end_of_life_fail_strict_validation(tmp_path: Path, minor: str) -> None:
    folder = project(
        tmp_path, (('      version: "1.36"\n', f'      version: "{minor}"\n'),), "aks-a100-vllm"
    )
    done = run("validate", "--strict", cwd=folder)
    assert done.exit_code != 0
    assert f"AKS {minor} reached its end of life" in done.stderr
    assert "gpuplat.yaml:14:16  clusters[0].kubernetes.version" in done.stderr


def test_eks_1_33_is_in_extended_support_with_its_fee(tmp_path: Path) -> None:
    folder = project(
        tmp_path, (('      version: "1.35"\n', '      version: "1.33"\n'),), "eks-l4-vllm"
    )
    done = run("validate", "--strict", cwd=folder)
    assert done.exit_code != 0
    assert "EKS 1.33 is in extended support since 2026-07-29" in done.stderr
    assert "$0.60/h per cluster instead of $0.10/h per cluster" in done.stderr
    assert "gpuplat.yaml:13:16  clusters[0].kubernetes.version" in done.stderr


@pytest.mark.parametrize("itype", sorted(EFA_FIRST_LISTED))
def test_efa_pool_gets_a_device_plugin_chart_that_lists_its_type(
    tmp_path: Path, itype: str
) -> None:
    after = "        labels:\n          team: ml-platform\n"
    pool = (
        f"{after}      - name: big\n        machine_type: {itype}\n"
        "        zones: [us-east-1a]\n        capacity:\n          type: on-demand\n"
        "        autoscaling:\n          min_nodes: 0\n          max_nodes: 2\n        efa: true\n"
    )
    folder = project(tmp_path, ((after, pool),), "eks-l4-vllm")
    assert run("render", cwd=folder).exit_code == 0
    version = chart_version(folder, "inference-use1", "aws-efa-k8s-device-plugin")
    parts = tuple(int(p) for p in re.findall(r"\d+", version))
    assert parts >= EFA_FIRST_LISTED[itype], version


@pytest.mark.parametrize("minor", ["1.33", "1.34", "1.35"])
def test_autoscaler_chart_ships_the_cluster_minor(tmp_path: Path, minor: str) -> None:
    folder = project(
        tmp_path, (('      version: "1.35"\n', f'      version: "{minor}"\n'),), "eks-l4-vllm"
    )
    assert run("render", cwd=folder).exit_code == 0
    version = chart_version(folder, "inference-use1", "cluster-autoscaler")
    assert AUTOSCALER_APP.get(version) == minor, version
