"""Finishing a ``--target-only`` failover with one command, with real terraform.

chat serves 1 replica on GKE (``inference-us``) with a cold standby on EKS (``inference-use1``).
GKE's cloud goes down (here: its serving root cannot read the infra outputs it needs, so it
cannot be planned), and ``failover --target-only`` brings EKS up and leaves GKE serving. Once
GKE is back, ``gpuplat converge`` (or the same failover again) takes GKE down to its cold role;
a second converge changes nothing.

What an emulator cannot show: the kubernetes provider is the schema stand-in in record mode
(tools/schema-provider), so nothing runs and no pod becomes ready; a Deployment's replica count
is what terraform last wrote, and nothing scales it. EKS's serving state lives in moto's S3.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuplat.app import servingplan
from tests.app.test_failover_keda import (
    fresh_bucket,
    keda_project,
    min_replica_count,
    scaled_by_keda,
)
from tests.app.test_failover_run import (
    EKS,
    GKE,
    environment,
    gpuplat,
    moto,
    seed_infra_outputs,
    serving_states,
    stand_ins,
    two_clouds,
)
from tests.support.moto import MotoServer
from tests.support.standin import record_env, recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]


def record_of(project: Path) -> dict[str, object]:
    """The environment's moves.json (pending moves)."""
    found = project / "envs" / "dev" / "moves.json"
    return json.loads(found.read_text(encoding="utf-8")) if found.exists() else {}  # type: ignore[no-any-return]


def gke_infra_state(project: Path) -> Path:
    return project / ".gpuplat" / "state" / "dev" / GKE / "infra.tfstate"


@pytest.fixture
def left_serving(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> Iterator[tuple[Path, dict[str, str]]]:
    """chat applied on both clouds, then moved to EKS with --target-only while GKE was down:
    EKS serves 1 replica and GKE, cold in the spec now, still serves its 1."""
    fresh_bucket(moto)
    project = two_clouds(tmp_path / "p", moto.endpoint, gke_backend={"type": "local"})
    yield from leave_serving(project, moto, stand_ins, tmp_path, 1)


def leave_serving(
    project: Path,
    moto: MotoServer,
    stand_ins: Path,
    tmp_path: Path,
    runs: int,
) -> Iterator[tuple[Path, dict[str, str]]]:
    """Apply the project, let GKE run ``runs`` replicas, move with --target-only while GKE is
    down, and bring GKE back."""
    env = environment(tmp_path, stand_ins, **record_env(tmp_path / "applies.jsonl"))
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    for cluster in (EKS, GKE):
        seed_infra_outputs(project, cluster, env, tmp_path)
    assert gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project).returncode == 10
    assert gpuplat("apply", "dev", env=env, cwd=project).returncode == 0
    yield from left_by_the_outage(project, env, moto, runs)


def left_by_the_outage(
    project: Path, env: dict[str, str], moto: MotoServer, runs: int
) -> Iterator[tuple[Path, dict[str, str]]]:
    """From chat applied as the spec says: GKE runs ``runs`` replicas, the move with
    --target-only while GKE is down, and GKE back."""
    scaled_by_keda(project, runs)
    assert serving_states(project, moto) == {EKS: {"chat": 0}, GKE: {"chat": runs}}
    # A plan (CI's, or anyone's) sees GKE serving that count, and keeps it beside the local
    # state, not in the committed tree.
    assert gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project).returncode == 0
    assert servingplan.load(project, "dev") == {"chat": {GKE: runs}}
    assert record_of(project) == {}

    # The outage: GKE's serving root cannot read what it needs.
    infra = gke_infra_state(project)
    aside = infra.with_name("infra.tfstate.aside")
    infra.rename(aside)
    move = ["failover", "chat", "--to", EKS, "-e", "dev", "--yes", "--target-only"]
    moved = gpuplat(*move, env=env, cwd=project)
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert "gpuplat converge chat -e dev" in moved.stdout, moved.stdout
    # Fixed: replaced at its count. KEDA: brought up to GKE's last known count (GKE cannot
    # be read now), its minimum held there until converge takes GKE down.
    eks_runs = runs
    assert serving_states(project, moto) == {EKS: {"chat": eks_runs}, GKE: {"chat": runs}}
    held = 0 if runs == 1 else runs
    if held:
        assert f"{EKS} starts at {held} replica(s), the count the source was last seen" in (
            moved.stdout
        ), moved.stdout
        assert "handed back" not in moved.stdout
    assert record_of(project)["moves"] == {
        "chat": {"target": EKS, "sources": [GKE], "source_role": "cold", "source_replicas": held}
    }

    # Still down: converge stops before applying anything and keeps the record.
    early = gpuplat("converge", "chat", "-e", "dev", "--yes", env=env, cwd=project)
    assert early.returncode != 0, early.stdout + early.stderr
    assert f"{GKE} could not be planned" in early.stderr
    assert "chat" in record_of(project)["moves"]
    assert serving_states(project, moto) == {EKS: {"chat": eks_runs}, GKE: {"chat": runs}}

    aside.rename(infra)  # GKE is back
    # A render (any later change to the spec) keeps the record.
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    assert "chat" in record_of(project)["moves"]
    yield project, env


def test_converge_finishes_a_target_only_failover_and_a_second_run_changes_nothing(
    left_serving: tuple[Path, dict[str, str]], moto: MotoServer, tmp_path: Path
) -> None:
    project, env = left_serving
    log = tmp_path / "applies.jsonl"
    log.unlink()
    done = gpuplat("converge", "chat", "-e", "dev", "--yes", env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{GKE}: cold holds 0..0, runs 1 (Deployment replaced" in done.stdout, done.stdout
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 0}}
    assert "moves" not in record_of(project)
    # Only GKE's Deployment was replaced; EKS, serving, was not touched.
    moves = [
        (a["action"], int(a["state"]["spec"][0]["replicas"]))  # type: ignore[index]
        for a in recorded_applies(log)
        if a["type"] == "kubernetes_deployment_v1"
    ]
    assert moves == [("delete", 1), ("create", 0)], moves
    assert {a["cwd"] for a in recorded_applies(log)} == {
        str(project / "envs" / "dev" / GKE / "serving")
    }

    log.unlink()
    again = gpuplat("converge", "chat", "-e", "dev", "--yes", "--json", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    report = json.loads(again.stdout)
    assert report["changed"] is False and report["replaced"] == [], report
    assert report["running"] == {EKS: 1, GKE: 0}
    assert recorded_applies(log) == []
    planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert planned.returncode == 0, planned.stdout + planned.stderr


def test_the_same_failover_again_finishes_the_move_instead_of_refusing(
    left_serving: tuple[Path, dict[str, str]], moto: MotoServer
) -> None:
    project, env = left_serving
    moved = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert "cannot hold it" not in moved.stdout + moved.stderr
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 0}}
    assert "moves" not in record_of(project)
    # Without a pending move, a failover to where it already serves is refused as before.
    again = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert again.returncode == 7, again.stdout + again.stderr  # refused
    assert f'"{EKS}" already serves workload "chat"' in again.stdout


def test_converge_on_scale_to_zero_holds_the_target_at_the_source_count_then_hands_it_back(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> None:
    """The issue's shape: KEDA 0..4 on both clouds, GKE serving 3 when its cloud went down.
    The --target-only move brought EKS up to GKE's last known 3 (KEDA held at 3). KEDA's cold
    bounds are 0..4, so GKE's 3 are inside them: converge takes it down because the record
    names it a source, and only then KEDA gets EKS's count back."""
    fresh_bucket(moto)
    project = keda_project(tmp_path / "p", moto.endpoint)
    project, env = next(leave_serving(project, moto, stand_ins, tmp_path, 3))
    log = tmp_path / "applies.jsonl"
    log.unlink()
    done = gpuplat("converge", "chat", "-e", "dev", "--yes", env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{EKS} is held at 3 replica(s)" in done.stdout, done.stdout
    assert f"applied: {EKS} handed back to its autoscaler" in done.stdout, done.stdout
    eks_root = str(project / "envs" / "dev" / EKS / "serving")
    steps = []
    for a in recorded_applies(log):
        side = "eks" if a["cwd"] == eks_root else "gke"
        if a["type"] == "kubernetes_deployment_v1":
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            steps.append((side, "deployment", a["action"], replicas))
        elif (count := min_replica_count(a["state"])) is not None:
            steps.append((side, "keda-min", a["action"], count))
    # EKS already serves GKE's 3 (the --target-only move held it there): converge leaves its
    # Deployment alone, takes GKE down, and only then hands EKS back to KEDA.
    assert not [s for s in steps if s[:2] == ("eks", "deployment")], steps
    gke_down = steps.index(("gke", "deployment", "create", 0))
    back = steps.index(("eks", "keda-min", "update", 0))
    assert gke_down < back, steps
    assert serving_states(project, moto) == {EKS: {"chat": 3}, GKE: {"chat": 0}}
    assert "moves" not in record_of(project)
    log.unlink()
    again = gpuplat("converge", "chat", "-e", "dev", "--yes", "--json", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert json.loads(again.stdout)["changed"] is False
    assert recorded_applies(log) == []
