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
from tests.support.standin import build_stand_ins, with_real_aws

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
    beside a root, and gpuplat's run locks (the files its locks are held on).
    """
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "tfdata" not in path.parts
        and path.name != ".terraform.lock.hcl"
        and path.parent.name != "locks"
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
