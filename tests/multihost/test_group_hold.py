"""The count an autoscaled group's target is held at, read from the sets' refreshed state.

KEDA scales a LeaderWorkerSet through its scale subresource, so an autoscaled set's manifest
names no count: the groups it serves are in the live object the kubernetes provider reads back
into the state (``object.spec.replicas``). The failover holds the target at what the sources
serve, at least the target's own minimum and at most its maximum, and only when it runs fewer
(app/hold.py). The plans here are `terraform show -json` documents as terraform writes them for
the two serving roots of the 405B example (tests/multihost/test_moves.py); the integration
test (tests/multihost/test_group_failover.py) runs the move with terraform, where the stand-in
has no KEDA: there the source's count is its minimum.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.app.failover import load_env
from gpuplat.app.hold import Hold, group_set, target_hold
from gpuplat.app.plan import ClusterPlan
from gpuplat.summary import StageSummary, running_replicas
from gpuplat.terraform import parse_plan
from tests.multihost.test_moves import AUTOSCALED, two_clusters

EAST, WEST = "frontier-use1", "frontier-usw2"
MOVED = (
    "    pool: p5\n",
    "    pool: p5\n    placements:\n      frontier-use1:\n        role: cold\n"
    "      frontier-usw2:\n        role: active\n",
)


def _plan(cluster: str, named: int | None, live: int | None) -> ClusterPlan:
    """The serving root's plan of ``cluster``: its set names ``named`` groups (None: KEDA's
    count, not named) and the provider read ``live`` back (None: never read back)."""
    spec: dict[str, object] = {"leaderWorkerTemplate": {"size": 2}}
    if named is not None:
        spec["replicas"] = named
    state = {
        "manifest": {
            "apiVersion": "leaderworkerset.x-k8s.io/v1",
            "kind": "LeaderWorkerSet",
            "spec": spec,
        },
        "object": None if live is None else {"spec": {"replicas": live, "startupPolicy": "x"}},
    }
    address = group_set("llama-405b", cluster)
    document = {
        "format_version": "1.2",
        "terraform_version": "1.14.0",
        "resource_changes": [
            {
                "address": address,
                "module_address": address.rsplit(".kubernetes_manifest", 1)[0],
                "mode": "managed",
                "type": "kubernetes_manifest",
                "name": "group",
                "index": 0,
                "change": {"actions": ["no-op"], "before": state, "after": state},
            }
        ],
    }
    summary = StageSummary("dev", "serving", "no-changes", cluster=cluster)
    summary.running = running_replicas(parse_plan(json.dumps(document)))
    return ClusterPlan("dev", cluster, [summary])


@pytest.mark.parametrize(
    ("east_live", "west_named", "held"),
    [
        (2, 0, Hold(2, True)),  # KEDA runs 2 groups in the east: the cold west starts at 2
        (1, 0, Hold(1, True)),  # one group: still held (a plain apply would wait for nothing)
        (None, 0, Hold(1, True)),  # never read back: at least the target's minimum
        (2, 2, Hold(0, False)),  # the west already runs them: left to its autoscaler
    ],
)
def test_the_target_is_held_at_the_groups_keda_runs_in_the_sources(
    tmp_path: Path, east_live: int | None, west_named: int, held: Hold
) -> None:
    folder = two_clusters(tmp_path, AUTOSCALED, MOVED)
    env = load_env(folder, "dev")
    plans = {EAST: _plan(EAST, None, east_live), WEST: _plan(WEST, west_named, None)}
    # The set's count as the plan reads it: the live object's, else 0 (the manifest names none).
    assert plans[EAST].stages[0].running == {group_set("llama-405b", EAST): east_live or 0}
    assert target_hold(env, "llama-405b", WEST, plans, [EAST]) == held
