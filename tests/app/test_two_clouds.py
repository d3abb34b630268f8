"""One spec, two clouds: each cluster has its own roots and state, so the EKS cluster is
planned and applied with AWS credentials only — none for Google exist in these runs.

The EKS cluster keeps its state in its own backend (S3, here moto's) while the environment's
default backend is GCS for the GKE cluster. Planning everything at once still plans EKS when
GKE has no credentials: one cloud's failure never stops the other's plan.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.app.test_lifecycle import (
    BUCKET,
    CLUSTER,
    environment,
    gpuplat,
    moto,
    moto_server_of_module,
)
from tests.support.moto import MotoServer

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "moto_server_of_module"]  # the fixtures, used by name

GKE = "inference-us"


PROMETHEUS = "http://kube-prometheus-stack-prometheus.monitoring:9090"


def two_cloud_project(folder: Path, endpoint: str) -> Path:
    """The GKE example plus the EKS example's cluster, the workload on both, EKS state in S3."""
    assert gpuplat("init", str(folder)).returncode == 0
    eks_folder = folder.parent / "eks-example"
    assert gpuplat("init", "-x", "eks-l4-vllm", str(eks_folder)).returncode == 0
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    eks = yaml.safe_load((eks_folder / "gpuplat.yaml").read_text(encoding="utf-8"))["clusters"][0]
    eks["aws"] = {"endpoint": endpoint}
    eks["backend"] = {
        "type": "s3",
        "bucket": BUCKET,
        "region": "us-east-1",
        "endpoint": endpoint,
    }
    spec["clusters"].append(eks)
    spec["workloads"][0]["clusters"] = [GKE, CLUSTER]
    spec["workloads"][0]["pool"] = None
    spec["workloads"][0]["accelerator"] = "L4"
    del spec["workloads"][0]["pool"]
    # Weights both clouds can read: gs:// on EKS is refused (its pods have AWS credentials only).
    spec["workloads"][0]["model"]["source"] = "hf://meta-llama/Llama-3.2-3B-Instruct"
    # KEDA on EKS reads the queue from the Prometheus the spec names (no managed default there).
    spec["workloads"][0].setdefault("autoscaling", {})["prometheus_address"] = PROMETHEUS
    (folder / "gpuplat.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert gpuplat("-C", str(folder), "render").returncode == 0
    (folder / "envs" / "dev" / CLUSTER / "infra" / "moto_override.tf").write_text(
        f'module "cluster_{CLUSTER}" {{\n  addons              = {{}}\n'
        "  cluster_autoscaler  = { enabled = false }\n"
        "  workload_identities = {}\n}\n",
        encoding="utf-8",
    )
    return folder


def without_google(env: dict[str, str], home: Path) -> dict[str, str]:
    out = {k: v for k, v in env.items() if not k.startswith(("GOOGLE_", "CLOUDSDK_"))}
    out["HOME"] = str(home)  # no gcloud application-default credentials either
    return out


def test_eks_plans_and_applies_without_google_credentials(moto: MotoServer, tmp_path: Path) -> None:
    env = without_google(environment(tmp_path), tmp_path)
    assert not any(k.startswith("GOOGLE_") for k in env)
    assert not (tmp_path / ".config" / "gcloud").exists()
    project = two_cloud_project(tmp_path / "p", moto.endpoint)
    gke_infra = (project / "envs/dev" / GKE / "infra").glob("*.tf")
    eks_infra = (project / "envs/dev" / CLUSTER / "infra").glob("*.tf")
    assert all("hashicorp/aws" not in p.read_text() for p in gke_infra)
    assert all("hashicorp/google" not in p.read_text() for p in eks_infra)
    assert 'backend "s3"' in (project / "envs/dev" / CLUSTER / "infra/backend.tf").read_text()
    assert 'backend "gcs"' in (project / "envs/dev" / GKE / "infra/backend.tf").read_text()

    planned = gpuplat("plan", "dev", "--cluster", CLUSTER, "--stage", "infra", env=env, cwd=project)
    assert planned.returncode == 10, planned.stderr
    assert planned.stdout.startswith(f"Plan for dev, cluster {CLUSTER}:\n  infra: 48 to create")
    assert f"cluster {GKE}:" not in planned.stdout
    applied = gpuplat("apply", "dev", "--cluster", CLUSTER, env=env, cwd=project)
    assert applied.returncode == 0, applied.stderr
    assert f"applied dev: {CLUSTER}/infra" in applied.stderr

    # Everything at once: GKE fails for want of Google credentials, EKS is planned regardless.
    both = gpuplat("plan", "dev", "--stage", "infra", env=env, cwd=project)
    assert both.returncode == 6, both.stderr
    assert f"Plan for dev, cluster {CLUSTER}:" in both.stdout
    assert f"Error: terraform failed in dev/{GKE}/infra: terraform init failed" in both.stderr
    assert "Hint: the GCS state backend (terraform init) found no Google credentials" in both.stderr
