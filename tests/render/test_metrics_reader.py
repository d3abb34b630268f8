"""KEDA's query identity, least privilege: on GKE one read-only grant per cluster whose
workloads query Google Managed Prometheus, for KEDA's operator service account only.

Read from the golden serving roots (real `terraform validate` of them runs in
tests/fidelity/test_schema_provider.py). What no emulator shows: the grant applied, and the
operator's token exchanged through Workload Identity Federation.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.releases.versions import latest, release_files

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_gke_serving_root_grants_keda_monitoring_viewer_only() -> None:
    root = (GOLDEN / "gke-l4-vllm/envs/prod/inference-us/serving/main.tf").read_text()
    assert 'module "metrics_inference-us"' in root
    assert 'namespace       = "keda"' in root
    assert 'service_account = "keda-operator"' in root
    module = release_files(latest("gke-metrics-reader"))["main.tf"]
    assert 'role    = "roles/monitoring.viewer"' in module
    assert "google_project_iam_member" in module
    assert "/subject/ns/${var.namespace}/sa/${var.service_account}" in module


def test_no_grant_where_nothing_queries_a_managed_prometheus() -> None:
    # EKS and AKS query the Prometheus the spec names (prometheus_address): no cloud grant.
    for example in ("eks-l4-vllm", "aks-a100-vllm"):
        for root in (GOLDEN / example / "envs").glob("*/*/serving/main.tf"):
            assert "metrics-reader" not in root.read_text(), root
