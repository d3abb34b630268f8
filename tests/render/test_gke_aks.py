"""One workload on GKE and AKS: the AKS example's cluster and the GKE example's in one spec.

Each cluster gets its own roots and state (the GKE cluster's in GCS, the AKS one's in the
environment's azurerm backend), its own providers and its own weights path: on AKS the
workload reads Azure Blob as its own identity; on GKE the same source is copied anonymously,
which validate warns about. Everything rendered conforms to the real provider schemas.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from gpuplat.conformance import check, load_schemas
from tests.support.cli import run
from tests.support.realparts import provider_schema_dir

AKS, GKE = "inference-eus", "inference-us"


def gke_aks_project(tmp_path: Path) -> Path:
    folder = tmp_path / "p"
    assert run("init", "--example", "aks-a100-vllm", folder).exit_code == 0
    assert run("init", "--example", "gke-l4-vllm", tmp_path / "g").exit_code == 0
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    gke = yaml.safe_load((tmp_path / "g" / "gpuplat.yaml").read_text(encoding="utf-8"))
    cluster = gke["clusters"][0]
    cluster["backend"] = {"type": "gcs", "bucket": "acme-inference-tfstate"}
    # A whole L4 (24 GB) per replica: the 15 GB model does not fit half of one.
    cluster["node_pools"][0]["sharing"] = {"mode": "none"}
    spec["clusters"].append(cluster)
    workload = spec["workloads"][0]
    workload["clusters"] = [AKS, GKE]  # AKS first, GKE when AKS has no GPUs
    del workload["pool"]  # each cluster has one pool: the workload runs there
    workload["model"]["mount"] = "copy"  # blobfuse is AKS only
    # GKE refuses an HPA on a vLLM metric until gpuplat renders a custom-metrics adapter.
    workload.pop("autoscaling", None)
    text = yaml.safe_dump(spec, sort_keys=False)
    (folder / "gpuplat.yaml").write_text(text, encoding="utf-8")
    return folder


def test_one_workload_on_gke_and_aks(tmp_path: Path) -> None:
    folder = gke_aks_project(tmp_path)
    validated = run("validate", cwd=folder)
    assert validated.exit_code == 0, validated.stderr
    assert f"on {GKE} the copy works only if the container allows anonymous reads" in (
        validated.stderr
    )
    rendered = run("render", cwd=folder)
    assert rendered.exit_code == 0, rendered.stderr

    dev = folder / "envs" / "dev"
    aks_infra = "".join(p.read_text() for p in (dev / AKS / "infra").glob("*.tf"))
    gke_infra = "".join(p.read_text() for p in (dev / GKE / "infra").glob("*.tf"))
    assert 'backend "azurerm"' in aks_infra and "hashicorp/google" not in aks_infra
    assert 'backend "gcs"' in gke_infra and "hashicorp/azurerm" not in gke_infra
    assert f'module "identity_chat_{AKS}"' in aks_infra
    assert "identity_chat" not in gke_infra

    aks_serving = (dev / AKS / "serving" / "main.tf").read_text()
    gke_serving = (dev / GKE / "serving" / "main.tf").read_text()
    assert f'module "serve_chat_{AKS}"' in aks_serving
    assert f'module "serve_chat_{GKE}"' in gke_serving
    # The same azcopy copy; only on AKS signed in as the workload's identity.
    for text in (aks_serving, gke_serving):
        assert '"https://acmemodels.blob.core.windows.net/models/Qwen/Qwen2.5-7B-Instruct/*"' in (
            text
        )
    assert '"azure.workload.identity/client-id"' in aks_serving
    assert "AZCOPY_AUTO_LOGIN_TYPE" in aks_serving
    assert "azure.workload.identity" not in gke_serving
    assert "AZCOPY_AUTO_LOGIN_TYPE" not in gke_serving

    report = check([folder / "envs", folder / "modules"], load_schemas(provider_schema_dir()))
    assert report.violations == (), "\n".join(str(v) for v in report.violations)
    assert not [n for n in report.notes if n.code == "type-not-checked"]
