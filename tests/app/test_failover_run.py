"""`gpuplat failover` carried out with real terraform: the spec change, both plans, the applies.

The two-cloud spec serves chat on GKE (``inference-us``) with a cold standby on EKS
(``inference-use1``); GKE runs out of GPUs and the workload moves to EKS.

What is real: the terraform binary, gpuplat run as a separate process, the EKS serving root's
state in an S3 backend on moto (with its lock file), its ``terraform_remote_state`` read of the
infra stage's outputs from moto's S3, and the plans terraform makes of the rendered roots.

What is not: there is no Kubernetes API and no kubernetes provider on this machine. The
kubernetes and google providers are the schema stand-in (tools/schema-provider), which plans
every object as configured and, in record mode, "applies" by recording the planned object as
state: nothing runs, no pod becomes ready, and the wait for the rollout that model-server makes
terraform do is never exercised. The infra stage's outputs the serving roots read (the API
host and CA) are written to the infra state by a root that has only those outputs; the infra
resources themselves are applied on moto in tests/app/test_lifecycle.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.app.test_failover import failover_project
from tests.support.moto import MotoServer, aws_env, moto_server
from tests.support.realparts import terraform_bin
from tests.support.standin import build_stand_ins, record_env, recorded_applies, with_real_aws

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

BUCKET = "acme-inference-tfstate"
GKE, EKS = "inference-us", "inference-use1"


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with moto_server() as server:
        urllib.request.urlopen(
            urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
        ).close()
        server.create_bucket(BUCKET)
        yield server


@pytest.fixture(scope="module")
def stand_ins() -> Path:
    return build_stand_ins()


def environment(tmp: Path, stand_ins: Path, **extra: str) -> dict[str, str]:
    """No Google credentials anywhere: only moto's fake AWS keys."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "CI" and not k.startswith(("GOOGLE_", "CLOUDSDK_", "AWS_"))
    }
    env.update(aws_env())
    env.update(
        {
            "TF_CLI_CONFIG_FILE": str(with_real_aws(stand_ins, tmp)),
            "GPUPLAT_TERRAFORM": terraform_bin(),
            "NO_COLOR": "1",
            # Application default credentials nowhere to be found, even on a developer machine.
            "GOOGLE_APPLICATION_CREDENTIALS": str(tmp / "no-google-credentials.json"),
            "CLOUDSDK_CONFIG": str(tmp / "no-gcloud"),
            **extra,
        }
    )
    return env


def gpuplat(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuplat", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
        check=False,
    )


def terraform(root: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [terraform_bin(), *args, "-no-color"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def two_clouds(folder: Path, endpoint: str, *, gke_backend: dict[str, object]) -> Path:
    """chat active on GKE and cold on EKS; EKS keeps its state in moto's S3."""
    failover_project(folder, clusters=[GKE, EKS])
    spec_file = folder / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    for cluster in spec["clusters"]:
        if cluster["name"] == EKS:
            cluster["backend"] = {
                "type": "s3",
                "bucket": BUCKET,
                "region": "us-east-1",
                "endpoint": endpoint,
            }
        else:
            cluster["backend"] = gke_backend
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return folder


def seed_infra_outputs(project: Path, cluster: str, env: dict[str, str], scratch: Path) -> None:
    """Write the outputs the serving root reads into the cluster's infra state (see above)."""
    rendered = project / "envs" / "dev" / cluster / "infra" / "backend.tf"
    root = scratch / f"seed-{cluster}"
    root.mkdir(parents=True)
    backend = rendered.read_text(encoding="utf-8")
    if '"local"' in backend:
        # The rendered path is relative to the rendered root; the seed root lives elsewhere.
        state = (rendered.parent / backend.split('path = "')[1].split('"')[0]).resolve()
        backend = f'terraform {{\n  backend "local" {{\n    path = "{state}"\n  }}\n}}\n'
    (root / "backend.tf").write_text(backend, encoding="utf-8")
    (root / "outputs.tf").write_text(
        'output "clusters" {\n  value = {\n'
        f'    "{cluster}" = {{\n'
        '      host           = "https://127.0.0.1:6443"\n'
        '      ca_certificate = base64encode("no cluster runs here")\n'
        "    }\n  }\n}\n",
        encoding="utf-8",
    )
    terraform(root, env, "init", "-input=false")
    terraform(root, env, "apply", "-auto-approve", "-input=false")


def tree_digest(folder: Path) -> dict[str, str]:
    """The project's files with their digests: the spec and everything rendered from it.

    Left out: terraform's working data (``.gpuplat/tfdata``) and the lock files init writes
    beside a root, gpuplat's run locks (the files its locks are held on), and its record of the
    files' status (``.gpuplat/cache/stats.json``: what it learnt reading them, not what it wrote).
    """
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "tfdata" not in path.parts
        and path.name != ".terraform.lock.hcl"
        and path.parent.name != "locks"
        and path.relative_to(folder).as_posix() != ".gpuplat/cache/stats.json"
    }


def test_a_source_that_cannot_be_planned_stops_the_failover_and_changes_nothing(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> None:
    # GKE keeps its state in Cloud Storage and this machine has no Google credentials: the
    # source cannot be planned, as when its cloud is down at 3 a.m.
    gcs = {"type": "gcs", "bucket": BUCKET}
    project = two_clouds(tmp_path / "p", moto.endpoint, gke_backend=gcs)
    env = environment(tmp_path, stand_ins)
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    seed_infra_outputs(project, EKS, env, tmp_path)
    before = tree_digest(project)
    overlay = (project / "envs" / "dev.yaml").read_bytes()

    moved = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert moved.returncode == 7, moved.stdout + moved.stderr  # refused
    assert f"the source {GKE} could not be planned" in moved.stderr
    assert "--target-only" in moved.stderr
    # Nothing changed: the overlay is byte for byte what it was, the rendered tree too, and no
    # saved plan is left to apply.
    assert (project / "envs" / "dev.yaml").read_bytes() == overlay
    assert tree_digest(project) == before
    assert not list((project / "envs" / "dev" / ".plans").rglob("*.tfplan"))
    # The EKS side was planned for real: its serving state in moto's S3 is still empty.
    keys = moto.client("s3").list_objects_v2(Bucket=BUCKET).get("Contents", [])
    assert not [k["Key"] for k in keys if "/serving/" in k["Key"]]


def deployments(state: dict[str, object]) -> dict[str, int]:
    """Deployment name -> replicas, read from a terraform state (its JSON)."""
    out: dict[str, int] = {}
    for resource in state.get("resources", []):  # type: ignore[union-attr]
        if resource["type"] != "kubernetes_deployment_v1":
            continue
        for instance in resource["instances"]:
            attrs = instance["attributes"]
            # The provider types replicas as a string.
            out[attrs["metadata"][0]["name"]] = int(attrs["spec"][0]["replicas"])
    return out


def serving_states(project: Path, moto: MotoServer) -> dict[str, dict[str, int]]:
    """The Deployments in each cluster's serving state: EKS's in moto's S3, GKE's on disk."""
    key = f"acme-inference/dev/{EKS}/serving/terraform.tfstate"
    body = moto.client("s3").get_object(Bucket=BUCKET, Key=key)["Body"].read()
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    return {
        EKS: deployments(json.loads(body)),
        GKE: deployments(json.loads(local.read_text(encoding="utf-8"))),
    }


def test_failover_brings_eks_up_before_gke_goes_down(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> None:
    # GKE keeps its state on disk here, so its side can be planned and "applied" through the
    # stand-ins too; EKS keeps its state in moto's S3 as on AWS.
    project = two_clouds(tmp_path / "p", moto.endpoint, gke_backend={"type": "local"})
    log = tmp_path / "applies.jsonl"
    env = environment(tmp_path, stand_ins, **record_env(log))
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    for cluster in (EKS, GKE):
        seed_infra_outputs(project, cluster, env, tmp_path)

    # Before: the serving roots as the spec says, chat active on GKE and a cold standby on EKS.
    planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert planned.returncode == 10, planned.stderr
    assert gpuplat("apply", "dev", env=env, cwd=project).returncode == 0
    assert serving_states(project, moto) == {EKS: {"chat": 0}, GKE: {"chat": 1}}
    log.unlink()

    # Without a terminal to confirm in and without --yes: both sides planned, nothing applied,
    # the overlay as it was.
    overlay_before = (project / "envs" / "dev.yaml").read_bytes()
    asked = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", env=env, cwd=project)
    assert asked.returncode == 7, asked.stdout + asked.stderr
    assert "a failover applies after a confirmation" in asked.stderr
    assert (project / "envs" / "dev.yaml").read_bytes() == overlay_before
    assert not log.exists()
    assert serving_states(project, moto) == {EKS: {"chat": 0}, GKE: {"chat": 1}}

    moved = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert moved.returncode == 0, moved.stdout + moved.stderr
    out = moved.stdout
    # The order, the spec change, both plans with their GPU deltas, and the applies.
    order = [
        f"phase 1: {EKS} cold -> active (replicas 1..4; GPUs always running 0 -> 1)",
        f"phase 2: {GKE} active -> cold (replicas 0..0; GPUs always running 1 -> 0)",
        f"envs/dev.yaml: workloads[chat].placements: {EKS} active, {GKE} cold",
        f"Plan for dev, cluster {EKS}:",
        "GPUs the model servers request: 0 -> 1 (+1)",
        f"Plan for dev, cluster {GKE}:",
        "GPUs the model servers request: 1 -> 0 (-1)",
        f"phase 1 applied: {EKS} (its pods ready: terraform waited for the rollout)",
        f"phase 2 applied: {GKE}",
    ]
    positions = [out.find(line) for line in order]
    assert -1 not in positions, out
    assert positions == sorted(positions), out

    # What terraform applied, in order: EKS's Deployment replaced (0 -> 1 replica) before
    # GKE's was (1 -> 0). Never both at 0: the GKE Deployment that served is removed only
    # after the EKS one holding a replica exists.
    moves = [
        (a["action"], a["cwd"], int(a["state"]["spec"][0]["replicas"]))  # type: ignore[index]
        for a in recorded_applies(log)
        if a["type"] == "kubernetes_deployment_v1"
    ]
    eks_root = str(project / "envs" / "dev" / EKS / "serving")
    gke_root = str(project / "envs" / "dev" / GKE / "serving")
    assert moves == [
        ("delete", eks_root, 0),
        ("create", eks_root, 1),
        ("delete", gke_root, 1),
        ("create", gke_root, 0),
    ]
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 0}}

    # The spec now says what was applied: nothing left to plan, and the overlay kept its
    # comments.
    overlay = (project / "envs" / "dev.yaml").read_text(encoding="utf-8")
    assert overlay.startswith("# yaml-language-server")
    assert yaml.safe_load(overlay)["workloads"][0]["placements"] == {
        EKS: {"role": "active"},
        GKE: {"role": "cold"},
    }
    again = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr


def test_a_target_terraform_cannot_plan_exits_6_as_plan_does(
    stand_ins: Path, tmp_path: Path
) -> None:
    """Terraform fails on the target (its Cloud Storage backend, no Google credentials here):
    `failover` exits 6 as `plan` does for the same failure (the README's exit-code table)."""
    project = failover_project(tmp_path / "p", clusters=[GKE, EKS])
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    for cluster in spec["clusters"]:
        if cluster["name"] == EKS:
            cluster["backend"] = {"type": "gcs", "bucket": BUCKET}
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    env = environment(tmp_path, stand_ins)
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    planned = gpuplat("plan", "dev", "--cluster", EKS, "--stage", "serving", env=env, cwd=project)
    assert planned.returncode == 6, planned.stderr
    overlay = (project / "envs" / "dev.yaml").read_bytes()
    moved = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--yes", env=env, cwd=project)
    assert moved.returncode == 6, moved.stdout + moved.stderr
    assert f"the target {EKS} could not be planned" in moved.stderr
    assert (project / "envs" / "dev.yaml").read_bytes() == overlay
