"""The one count an autoscaled target is held at while a move takes its sources down, which
both `failover` and `converge` read (app/hold.py), from states as terraform's refresh reports
them (the ``running`` counts a plan's summary carries)."""

from __future__ import annotations

from pathlib import Path

from gpuplat.app.failover import load_env
from gpuplat.app.hold import Hold, deployment, target_hold
from gpuplat.app.plan import ClusterPlan
from gpuplat.spec.load import EnvSpec
from gpuplat.summary import StageSummary
from tests.app.test_failover import failover_project

KEDA = {"scale_to_zero": True, "replicas": {"min": 0, "max": 4}}


def _plans(env: EnvSpec, counts: dict[str, int]) -> dict[str, ClusterPlan]:
    out = {}
    for cluster, count in counts.items():
        address = deployment(env, "chat", cluster)
        stage = StageSummary("dev", "serving", "changes", running={address: count})
        out[cluster] = ClusterPlan("dev", cluster, [stage])
    return out


def test_the_target_is_held_at_what_the_sources_serve(tmp_path: Path) -> None:
    env = load_env(failover_project(tmp_path / "p", **KEDA), "dev")
    plans = _plans(env, {"inference-use1": 3, "inference-us": 0})
    # The target runs fewer: its Deployment is replaced at the held count.
    replaced = (deployment(env, "chat", "inference-us"),)
    held = target_hold(env, "chat", "inference-us", plans, ["inference-use1"])
    assert held == Hold(3, True, replaced)
    # A source that cannot be read counts with its last known count; the hold stops at max.
    held = target_hold(env, "chat", "inference-us", plans, [], {"inference-use1": 9})
    assert held == Hold(4, True, replaced)


def test_a_target_running_enough_is_held_without_a_replacement(tmp_path: Path) -> None:
    env = load_env(failover_project(tmp_path / "p", **KEDA), "dev")
    plans = _plans(env, {"inference-use1": 2, "inference-us": 2})
    assert target_hold(env, "chat", "inference-us", plans, ["inference-use1"]) == Hold(2, False)


def test_nothing_is_held_without_an_autoscaler_or_above_the_minimum(tmp_path: Path) -> None:
    fixed = load_env(failover_project(tmp_path / "fixed"), "dev")
    plans = _plans(fixed, {"inference-use1": 3, "inference-us": 0})
    assert target_hold(fixed, "chat", "inference-us", plans, ["inference-use1"]) == Hold(0, False)
    keda = load_env(failover_project(tmp_path / "keda", **KEDA), "dev")
    idle = _plans(keda, {"inference-use1": 0, "inference-us": 0})
    assert target_hold(keda, "chat", "inference-us", idle, ["inference-use1"]) == Hold(0, False)
