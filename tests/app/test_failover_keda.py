"""A failover on the shape an on-call engineer tried: scale-to-zero (KEDA) on both clouds.

chat serves on GKE (``inference-us``) with a standby on EKS (``inference-use1``); KEDA holds
0..max replicas on both, so a role change alone changes no resource: only the serving roots'
``placements`` outputs (role, serving) change. Real terraform plans and applies the rendered
roots; EKS's serving state lives in moto's S3, GKE's on disk.

What an emulator cannot show: the kubernetes and google providers are the schema stand-in in
record mode (tools/schema-provider), so nothing runs and no pod becomes ready; KEDA never acts
on the ScaledObject, and a Deployment's replica count is what terraform last wrote.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.app.test_failover_run import (
    BUCKET,
    EKS,
    GKE,
    environment,
    gpuplat,
    moto,
    seed_infra_outputs,
    stand_ins,
    two_clouds,
)
from tests.support.moto import MotoServer
from tests.support.snapshot import LOG, PROJECT, Build, from_snapshot
from tests.support.standin import record_env, recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]


def keda_project(folder: Path, endpoint: str) -> Path:
    """The two-cloud project with chat on KEDA, 0..4 replicas, active on GKE."""
    project = two_clouds(folder, endpoint, gke_backend={"type": "local"})
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    chat = spec["workloads"][0]
    chat.update({"clusters": [GKE, EKS], "scale_to_zero": True, "replicas": {"min": 0, "max": 4}})
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    overlay = project / "envs" / "dev.yaml"
    data = yaml.safe_load(overlay.read_text(encoding="utf-8")) or {}
    for workload in data.get("workloads", []):
        workload.pop("replicas", None)
    overlay.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return project


def fresh_bucket(moto: MotoServer) -> None:
    """The state bucket empty: each test starts from no EKS state (moto lives per module)."""
    s3 = moto.client("s3")
    for item in s3.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        s3.delete_object(Bucket=BUCKET, Key=item["Key"])


def placements(project: Path, moto: MotoServer) -> dict[str, object]:
    """The ``placements`` outputs of both serving states, merged."""
    key = f"acme-inference/dev/{EKS}/serving/terraform.tfstate"
    eks = json.loads(moto.client("s3").get_object(Bucket=BUCKET, Key=key)["Body"].read())
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    gke = json.loads(local.read_text(encoding="utf-8"))
    out: dict[str, object] = {}
    for state in (eks, gke):
        for name, value in state["outputs"]["placements"]["value"].items():
            out[name] = {k: v for k, v in value.items() if k in ("role", "serving")}
    return out


def keda_build(moto: MotoServer, stand_ins: Path) -> Build:
    """The project rendered, planned and applied as the spec says: chat active on GKE."""

    def build(folder: Path) -> dict[str, str]:
        moto.create_bucket(BUCKET)
        project = keda_project(folder / PROJECT, moto.endpoint)
        env = environment(folder, stand_ins, **record_env(folder / LOG))
        assert gpuplat("render", env=env, cwd=project).returncode == 0
        for cluster in (EKS, GKE):
            seed_infra_outputs(project, cluster, env, folder)
        planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
        assert planned.returncode == 10, planned.stdout + planned.stderr
        done = gpuplat("apply", "dev", env=env, cwd=project)
        assert done.returncode == 0, done.stdout + done.stderr
        return {}

    return build


@pytest.fixture
def applied(
    moto: MotoServer, stand_ins: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, str]]:
    """This test's own copy of the applied project (built once per session), chat on GKE."""
    build = keda_build(moto, stand_ins)
    from_snapshot("keda", build, moto=moto, factory=tmp_path_factory, into=tmp_path)
    project = tmp_path / PROJECT
    env = environment(tmp_path, stand_ins, **record_env(tmp_path / LOG))
    rendered = gpuplat("render", env=env, cwd=project)
    assert rendered.returncode == 0, rendered.stdout + rendered.stderr
    return project, env


def test_output_only_changes_are_changes_planned_and_applied(
    applied: tuple[Path, dict[str, str]], moto: MotoServer
) -> None:
    project, env = applied
    assert placements(project, moto) == {
        f"chat@{GKE}": {"role": "active", "serving": True},
        f"chat@{EKS}": {"role": "cold", "serving": False},
    }
    moved = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert moved.returncode == 0, moved.stdout + moved.stderr
    # Both serving roots change only their outputs: planned as changes, applied, and said so.
    assert "outputs to change: placements" in moved.stdout, moved.stdout
    assert placements(project, moto) == {
        f"chat@{GKE}": {"role": "cold", "serving": False},
        f"chat@{EKS}": {"role": "active", "serving": True},
    }
    again = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr


def test_a_plan_of_output_changes_exits_10_and_apply_applies_it(
    applied: tuple[Path, dict[str, str]], moto: MotoServer
) -> None:
    project, env = applied
    overlay = project / "envs" / "dev.yaml"
    data = yaml.safe_load(overlay.read_text(encoding="utf-8")) or {}
    data.setdefault("workloads", [{"name": "chat"}])[0]["placements"] = {
        EKS: {"role": "active"},
        GKE: {"role": "cold"},
    }
    overlay.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    planned = gpuplat("plan", "dev", "--stage", "serving", "--json", env=env, cwd=project)
    assert planned.returncode == 10, planned.stdout + planned.stderr
    stages = [s for c in json.loads(planned.stdout) for s in c["stages"]]
    assert {s["cluster"]: s["outputs"] for s in stages} == {
        EKS: ["placements"],
        GKE: ["placements"],
    }
    done = gpuplat("apply", "dev", env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "nothing to apply" not in done.stderr + done.stdout
    assert placements(project, moto)[f"chat@{EKS}"] == {"role": "active", "serving": True}


def scaled_by_keda(project: Path, replicas: int) -> None:
    """What KEDA did on GKE under load: its Deployment runs ``replicas`` (terraform leaves the
    count to the autoscaler, and its refresh reads it back from the cluster)."""
    path = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    state = json.loads(path.read_text(encoding="utf-8"))
    for resource in state["resources"]:
        if resource["type"] == "kubernetes_deployment_v1":
            for instance in resource["instances"]:
                instance["attributes"]["spec"][0]["replicas"] = str(replicas)
    path.write_text(json.dumps(state), encoding="utf-8")


def min_replica_count(state: object) -> int | None:
    """The ScaledObject's minReplicaCount in a recorded kubernetes_manifest state, or None."""
    text = json.dumps(state)
    found = re.search(r'"minReplicaCount": "?(\d+)', text)
    return int(found.group(1)) if '"ScaledObject"' in text and found else None


def test_a_scale_to_zero_target_serves_the_source_count_before_the_source_goes_down(
    applied: tuple[Path, dict[str, str]], moto: MotoServer, tmp_path: Path
) -> None:
    project, env = applied
    scaled_by_keda(project, 3)
    log = tmp_path / "applies.jsonl"
    log.unlink()
    moved = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert f"{EKS} starts at 3 replica(s)" in moved.stdout, moved.stdout
    assert f"phase 3 applied: {EKS} handed back to its autoscaler" in moved.stdout
    eks_root = str(project / "envs" / "dev" / EKS / "serving")
    steps = []
    for a in recorded_applies(log):
        side = "eks" if a["cwd"] == eks_root else "gke"
        if a["type"] == "kubernetes_deployment_v1":
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            steps.append((side, "deployment", a["action"], replicas))
        elif (count := min_replica_count(a["state"])) is not None:
            steps.append((side, "keda-min", a["action"], count))
    # EKS's Deployment starts at GKE's 3 (terraform waits for its rollout) with KEDA held at
    # 3; GKE changes only after that; then KEDA gets EKS's count back (minimum 0 again).
    eks_up = steps.index(("eks", "deployment", "create", 3))
    held = steps.index(("eks", "keda-min", "update", 3))
    back = steps.index(("eks", "keda-min", "update", 0))
    gke = [i for i, s in enumerate(steps) if s[0] == "gke"]
    assert max(eks_up, held) < min(gke or [back]) and back > max(gke or [held]), steps
    # KEDA's minimum is raised before the Deployment is replaced: with minReplicaCount 0 and
    # its cooldown long over, KEDA would scale the new pods to 0 at its next poll, and the
    # provider's rollout wait (it re-reads spec.replicas) would end "complete" at 0 replicas.
    assert held < eks_up, steps
    assert placements(project, moto)[f"chat@{EKS}"] == {"role": "active", "serving": True}
    again = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr


def test_plan_flags_a_running_count_its_role_disagrees_with(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> None:
    """Fixed counts (no autoscaler): chat runs 1 replica on GKE. The roles are swapped in the
    overlay by hand, as a ``--target-only`` failover leaves them for a source never applied:
    terraform leaves GKE's running Deployment alone (its count is ``ignore_changes``), so only
    the refreshed state shows the disagreement, and ``plan`` says it."""
    fresh_bucket(moto)
    project = two_clouds(tmp_path / "p", moto.endpoint, gke_backend={"type": "local"})
    env = environment(tmp_path, stand_ins, **record_env())
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    for cluster in (EKS, GKE):
        seed_infra_outputs(project, cluster, env, tmp_path)
    assert gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project).returncode == 10
    assert gpuplat("apply", "dev", env=env, cwd=project).returncode == 0
    overlay = project / "envs" / "dev.yaml"
    data = yaml.safe_load(overlay.read_text(encoding="utf-8"))
    data["workloads"][0]["placements"] = {EKS: {"role": "active"}, GKE: {"role": "cold"}}
    overlay.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    planned = gpuplat("plan", "dev", "--stage", "serving", "--json", env=env, cwd=project)
    assert planned.returncode == 10, planned.stdout + planned.stderr
    stages = {s["cluster"]: s for c in json.loads(planned.stdout) for s in c["stages"]}
    assert stages[GKE]["running_replicas"] == {
        "module.serve_chat_inference-us.kubernetes_deployment_v1.this[0]": 1
    }
    assert [w.split(", and")[0] for w in stages[GKE]["warnings"]] == [
        f"chat@{GKE} runs 1 replica(s) but its role cold holds 0..0"
    ]
    # And EKS, active now, runs none of the replicas its role holds.
    assert [w.split(", and")[0] for w in stages[EKS]["warnings"]] == [
        f"chat@{EKS} runs 0 replica(s) but its role active holds 1..4"
    ]
