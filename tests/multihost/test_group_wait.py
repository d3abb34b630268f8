"""A multi-host group's apply waits until every group is ready (model-server 3.4.0).

The LeaderWorkerSet's kubernetes_manifest carries a ``wait`` on the set's status: the
provider's field waiter (hashicorp/kubernetes ``manifest/provider/waiter.go``) polls the object
until ``status.readyReplicas`` and ``status.updatedReplicas`` both match ``^<count>$``, within
the create and update timeouts. A cold standby (0 groups) and an autoscaled set (KEDA's count)
get no wait, so their apply never blocks. Checked on a real ``terraform plan`` of the released
modules through the schema stand-in: the active placement of the 405B example, the same
workload's cold standby in a second cluster, and the autoscaled variant.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.render.serving import model_server_args
from gpuplat.spec.load import load_project
from gpuplat.workload.serving import ServingPlan, serving_plans
from tests.multihost.test_autoscaling import autoscaled
from tests.multihost.test_group import TODAY
from tests.multihost.test_moves import two_clusters
from tests.parity.test_serving import label, write_root
from tests.support.standin import build_stand_ins, run


def _placements(tmp_path: Path) -> dict[str, ServingPlan]:
    env = load_project(two_clusters(tmp_path), today=TODAY).envs["dev"]
    return {p.cluster: p for p in serving_plans(env)}


def _planned_sets(root: Path) -> dict[str, dict[str, object]]:
    """Module label -> the planned LeaderWorkerSet (the resource's ``after``)."""
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=serving.tfplan")):
        done = run(cli, root, *args, timeout=600)
        assert done.returncode == 0, f"terraform {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, root, "show", "-json", "serving.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr
    return {
        c["module_address"].removeprefix("module."): c["change"]["after"]
        for c in json.loads(shown.stdout)["resource_changes"]
        if c["type"] == "kubernetes_manifest" and c["name"] == "group"
    }


def test_the_plain_group_count_is_one_and_the_standby_none(tmp_path: Path) -> None:
    found = _placements(tmp_path)
    assert model_server_args(found["frontier-use1"])["replicas"]["min"] == 1  # type: ignore[index]
    assert model_server_args(found["frontier-usw2"])["replicas"]["min"] == 0  # type: ignore[index]


@pytest.mark.terraform
def test_the_set_waits_for_every_group_and_a_standby_never_blocks(tmp_path: Path) -> None:
    found = _placements(tmp_path / "two")
    scaled = autoscaled(tmp_path / "scaled")
    plans = {
        label("mh", "active"): found["frontier-use1"],
        label("mh", "cold"): found["frontier-usw2"],
        label("mh", "scaled"): scaled,
    }
    write_root(tmp_path / "root", plans, lambda _file, text: text)
    sets = _planned_sets(tmp_path / "root")
    active = sets[label("mh", "active")]
    (wait,) = active["wait"]  # type: ignore[misc]
    # One group of 2 nodes: both counts must be exactly 1 (a regular expression each).
    assert wait["fields"] == {"status.readyReplicas": "^1$", "status.updatedReplicas": "^1$"}
    assert wait["condition"] in (None, []) and not wait["rollout"]
    deadline = model_server_args(found["frontier-use1"])["rollout"]["progress_deadline_seconds"]  # type: ignore[index]
    (timeouts,) = active["timeouts"]  # type: ignore[misc]
    assert timeouts["create"] == timeouts["update"] == f"{deadline + 60}s"
    assert deadline > 600  # longer than the provider's own 10 minutes
    # The cold standby (0 groups) and the autoscaled set do not wait: their apply never blocks.
    for key in ("cold", "scaled"):
        assert sets[label("mh", key)]["wait"] in (None, [])
