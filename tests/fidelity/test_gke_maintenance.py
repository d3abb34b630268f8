"""GKE maintenance windows and exclusions from the spec, planned through the google stand-in.

A node upgrade drains GPU nodes; the prod example lets GKE upgrade only on weekend nights, and a
launch freeze holds back minor and node upgrades. The stand-in plans what is configured with the
real 6.50 schema; what GKE itself refuses (a window shorter than 48 hours in 32 days, a
NO_UPGRADES exclusion longer than 30 days) is not emulated here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fidelity.test_offline_plan import _plan
from tests.support.cli import run as cli_run
from tests.support.specs import project

pytestmark = pytest.mark.terraform

CLUSTER = "module.cluster_inference-us.google_container_cluster.this"


def test_prod_maintenance_window_and_exclusion_are_planned(tmp_path: Path) -> None:
    folder = project(tmp_path / "p")
    overlay = folder / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    old = "          recurrence: FREQ=WEEKLY;BYDAY=SA,SU\n"
    assert old in text
    text = text.replace(
        old,
        old + "        exclusions:\n"
        "          - name: launch-freeze\n"
        '            start_time: "2026-12-20T00:00:00Z"\n'
        '            end_time: "2027-01-05T00:00:00Z"\n',
    )
    overlay.write_text(text, encoding="utf-8")
    assert cli_run("render", cwd=folder).exit_code == 0, "render failed"
    prod = _plan(folder / "envs" / "prod" / "inference-us" / "infra")
    (policy,) = prod[CLUSTER]["maintenance_policy"]
    assert policy["recurring_window"] == [
        {
            "start_time": "2026-01-03T02:00:00Z",
            "end_time": "2026-01-03T08:00:00Z",
            "recurrence": "FREQ=WEEKLY;BYDAY=SA,SU",
        }
    ]
    (exclusion,) = policy["maintenance_exclusion"]
    assert exclusion["exclusion_name"] == "launch-freeze"
    assert exclusion["exclusion_options"] == [{"scope": "NO_MINOR_OR_NODE_UPGRADES"}]
    dev = _plan(folder / "envs" / "dev" / "inference-us" / "infra")
    assert dev[CLUSTER]["maintenance_policy"] == []
