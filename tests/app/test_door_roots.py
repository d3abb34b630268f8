"""`gpuplat plan`, `apply` and `destroy` take a Cloud DNS front-door root like any root.

Real terraform plans, applies and destroys the door root on the schema-serving stand-in in record
mode; the serving states it reads are written by real terraform
(tests/render/test_cloud_dns_door.py says how). ``--stage door`` keeps the clusters' own roots
out, so no cluster is planned here.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gpuplat.app.plan import ClusterPlan, _plan_door
from gpuplat.console import Console
from gpuplat.progress import Progress
from gpuplat.spec.load import load_project
from gpuplat.summary import StageSummary
from gpuplat.workspace import StageRoot
from tests.render.test_cloud_dns_door import cloud_dns_project, serving_state
from tests.support.cli import run
from tests.support.realparts import terraform_bin
from tests.support.standin import build_stand_ins, record_env, recorded_applies


def test_plan_apply_destroy_take_the_door_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = cloud_dns_project(tmp_path)
    log = tmp_path / "applies.jsonl"
    env = {**record_env(log), "TF_CLI_CONFIG_FILE": str(build_stand_ins())}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("TF_PLUGIN_CACHE_DIR", raising=False)
    tf = ("--terraform", terraform_bin())
    serving_state(root, "inference-us", True, "203.0.113.10")
    serving_state(root, "inference-eus", False, "198.51.100.7")

    planned = run("plan", "dev", "--stage", "door", *tf, cwd=root)
    assert planned.exit_code == 10, planned.stdout + planned.stderr
    assert "Plan for dev, cluster door-chat:" in planned.stdout
    # --cluster scopes the doors to the workloads placed on that cluster.
    other = run("plan", "dev", "--stage", "door", "--cluster", "inference-us", *tf, cwd=root)
    assert other.exit_code == 10 and "door-chat" in other.stdout

    applied = run("apply", "dev", *tf, cwd=root)
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert "applied dev: door-chat/door" in applied.stderr + applied.stdout
    records = [a for a in recorded_applies(log) if a["type"] == "google_dns_record_set"]
    assert len(records) == 1

    again = run("plan", "dev", "--stage", "door", *tf, cwd=root)
    assert again.exit_code == 0, again.stdout + again.stderr

    gone = run("destroy", "dev", "--stage", "door", "--yes", *tf, cwd=root)
    assert gone.exit_code == 0, gone.stdout + gone.stderr
    assert "destroyed dev: door-chat/door" in gone.stderr + gone.stdout
    after = run("plan", "dev", "--stage", "door", *tf, cwd=root)
    assert after.exit_code == 10  # the record set is to be created again


def test_the_door_plan_waits_for_a_serving_plan_of_its_clusters(tmp_path: Path) -> None:
    root = cloud_dns_project(tmp_path)
    env = load_project(root, ["dev"]).envs["dev"]
    from gpuplat.app.door import doors_of

    (door,) = doors_of(root, env, [])
    serving = ClusterPlan("dev", "inference-eus")
    serving.stages.append(StageSummary("dev", "serving", "planned", cluster="inference-eus"))
    serving.stages[0].counts = {"update": 1}
    waiting = _plan_door(door, env, [serving], "digest", None, None)  # type: ignore[arg-type]
    assert [s.status for s in waiting.stages] == ["waits"]
    assert waiting.stages[0].waits_for == "inference-eus/serving"
    assert isinstance(door, StageRoot) and door.root == root / "envs/dev/door-chat"


def test_a_door_apply_failure_in_a_failover_names_the_door_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpuplat.app.door import follow
    from gpuplat.app.move import MoveResult, _stopped
    from gpuplat.errors import GpuplatError
    from gpuplat.spec.failover import plan_failover

    root = cloud_dns_project(tmp_path)
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", str(build_stand_ins()))
    monkeypatch.delenv("TF_PLUGIN_CACHE_DIR", raising=False)
    env = load_project(root, ["dev"]).envs["dev"]
    serving_state(root, "inference-us", True, "203.0.113.10")
    # An address the door's module refuses (IPv4 only): its plan fails, after the serving apply.
    serving_state(root, "inference-eus", True, "not-an-address")
    from gpuplat.terraform import find_binary

    progress = Progress(Console(out=io.StringIO(), err=io.StringIO(), color=False), live=False)
    with pytest.raises(GpuplatError) as failed:
        follow(root, env, ["inference-eus"], binary=find_binary(terraform_bin()), progress=progress)
    result = MoveResult("dev", plan_failover(env, "chat", "inference-eus"))
    error = _stopped(failed.value, result, "inference-eus")
    assert error.message.startswith("terraform failed in dev/door-chat:")
    assert "front-door root dev/door-chat that follows it failed" in error.details[-1]
    assert "phase 1 failed" not in "\n".join(error.details)
    assert error.hint is not None and "--stage door" in error.hint


def test_a_removed_cloud_dns_door_warns_that_its_record_set_is_left_behind(
    tmp_path: Path,
) -> None:
    from gpuplat.app.render import render_project
    from tests.render.test_cloud_dns_door import DOOR

    root = cloud_dns_project(tmp_path)
    spec = root / "gpuplat.yaml"
    spec.write_text(spec.read_text().replace(DOOR, ""))
    outcome = render_project(root, ["dev"])
    assert not list((root / "envs/dev/door-chat").rglob("*.tf"))
    (warning,) = [w for w in outcome.result.left if "door-chat" in w.message]
    assert "Cloud DNS record set" in warning.message
    assert warning.hint is not None and "gpuplat destroy dev --stage door" in warning.hint
    assert warning in outcome.result.warnings
