"""GKE's answers that other tests do not reach: add-on webhook ports, weights read grants and
the Cloud Storage FUSE cache bound, all computed from the shipped examples."""

from __future__ import annotations

from pathlib import Path

from gpuplat.addons import plan_addons
from gpuplat.render.roots import render
from gpuplat.spec.load import load_project
from gpuplat.webhooks import webhook_charts, webhook_ports
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run
from tests.support.specs import project


def test_webhook_ports_follow_what_the_platform_stage_installs(tmp_path: Path) -> None:
    patch = (
        (
            "  metrics:\n",
            "  gang_scheduling:\n    kueue: true\n    leader_worker_set: true\n  metrics:\n",
        ),
    )
    folder = project(tmp_path, patch)
    envs = load_project(folder, ["dev", "prod"]).envs
    # prod scales on the server's queue through KEDA too: its metrics API (6443) as well.
    for name, ports in (("dev", (6443, 9443)), ("prod", (6443, 9443))):
        spec = envs[name].spec
        cluster = spec.clusters[0]
        installed = set(plan_addons(spec, cluster).charts())
        # Every chart with webhooks is one the platform stage installs, and vice versa.
        assert set(webhook_charts(spec, cluster)) == {
            c for c in installed if c in {"keda", "keda-http-add-on", "kueue", "leaderworkerset"}
        }
        assert webhook_ports(spec, cluster) == ports, name


def test_gcs_weights_get_a_read_grant_on_exactly_their_bucket(tmp_path: Path) -> None:
    assert run("init", "--example", "gke-h100-mig", tmp_path).exit_code == 0
    rendered = render(load_project(tmp_path, ["dev"]).envs.values())
    serving = rendered.files["envs/dev/mig-central/serving/main.tf"]
    assert 'module "weights_coder_mig-central" {' in serving
    assert '  bucket          = "acme-models"\n' in serving
    assert '  namespace       = "coder"\n  service_account = "coder"\n' in serving
    assert "  depends_on = [module.weights_coder_mig-central]\n" in serving
    module = rendered.module_texts("modules/gke-weights-reader/1.0.0")
    main = module["modules/gke-weights-reader/1.0.0/main.tf"]
    # Workload Identity Federation for GKE's principal of one Kubernetes service account.
    assert "principal://iam.googleapis.com/projects/${data.google_project.this.number}" in main
    assert "workloadIdentityPools/${var.project}.svc.id.goog/subject/ns/${var.namespace}" in main
    assert 'role   = "roles/storage.objectViewer"' in main


def test_weights_in_the_image_need_no_grant(tmp_path: Path) -> None:
    patch = (
        (
            "      source: gs://acme-models/meta-llama/Llama-3.2-3B-Instruct\n",
            "      source: file:///models/llama\n      mount: image\n",
        ),
    )
    folder = project(tmp_path, patch)
    rendered = render(load_project(folder, ["dev"]).envs.values())
    assert "weights_" not in rendered.files["envs/dev/inference-us/serving/main.tf"]
    assert not [p for p in rendered.module_hashes if "gke-weights-reader" in p]


def test_fuse_cache_is_bounded_by_the_weights(tmp_path: Path) -> None:
    assert run("init", "--example", "gke-h100-mig", tmp_path).exit_code == 0
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert plan.weights.mode == "gcsfuse"
    # 29.6 GB of weights: 10% over, rounded up, plus 1 GiB -> 34 GiB per replica's cache, of
    # which the cache itself may take 33 GiB and the sidecar's logs the rest.
    options = (plan.weights.mount_options or "").split(",")
    assert "file-cache:max-size-mb:33792" in options
    assert not [o for o in options if o == "file-cache:max-size-mb:-1"]
    assert plan.pod_annotations["gke-gcsfuse/ephemeral-storage-request"] == "34Gi"
    assert plan.pod_annotations["gke-gcsfuse/ephemeral-storage-limit"] == "34Gi"


def test_dcgm_exporter_off_turns_gke_dcgm_off(tmp_path: Path) -> None:
    """``addons.metrics.dcgm_exporter: false`` reaches GKE's monitoring_config (it was
    hard-coded on). Terraform's evaluation of the module's concat is not run here: the offline
    plan tests run the module with dcgm_metrics true."""
    patch = (("    dcgm_exporter: true\n", "    dcgm_exporter: false\n"),)
    folder = project(tmp_path / "off", patch)
    rendered = render(load_project(folder, ["dev"]).envs.values())
    infra = rendered.files["envs/dev/inference-us/infra/main.tf"]
    assert "  dcgm_metrics  = false\n" in infra
    on = render(load_project(project(tmp_path / "on"), ["dev"]).envs.values())
    assert "  dcgm_metrics  = true\n" in on.files["envs/dev/inference-us/infra/main.tf"]
    main = on.module_texts("modules/gke-cluster/1.7.0")["modules/gke-cluster/1.7.0/main.tf"]
    assert 'concat(["SYSTEM_COMPONENTS"], var.dcgm_metrics ? ["DCGM"] : [])' in main


def test_scale_up_anyway_is_documented_as_any_rung() -> None:
    """GKE's ScaleUpAnyway on Standard without node-pool auto-creation scales any pool with the
    class's label and taint (ComputeClass docs), not a default machine: the reference says so."""
    from gpuplat.spec.model.cluster import Autoscaling

    text = Autoscaling.model_fields["when_unavailable"].description or ""
    assert "any rung of the ladder, in no order" in text
    assert "default machine," not in text
