"""A `kubernetes_manifest` its CRD refuses fails `terraform plan` through the schema stand-in.

The real kubernetes provider plans a `kubernetes_manifest` against the OpenAPI type the cluster
serves for its kind and fails the plan when the object does not fit; the API server runs the
CRD's CEL rules (and the product's webhook its own) at apply. There is no cluster here: the
stand-in checks the planned object against gpuplat's vendored CRDs and fails the plan. Real
terraform plans a root that calls the released gpu-platform and scale-to-zero modules, first
with the objects gpuplat renders, then with one violation each.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.hcl.writer import attributes
from gpuplat.releases.versions import latest, release_files
from gpuplat.targets.gke.computeclass import ComputeClass, PriorityRule
from tests.support.standin import build_stand_ins, run

pytestmark = pytest.mark.terraform

GOOD = ComputeClass("gpuplat-l4", (PriorityRule(("l4-od",)), PriorityRule(("l4-spot",))))
ZERO = {
    "name": "chat",
    "namespace": "chat",
    "labels": {"app.kubernetes.io/name": "chat"},
    "port": 8000,
    "replicas": {"min": 0, "max": 4},
    "http": {
        "front": {"name": "chat-front", "hosts": ["chat"], "external_name": "i.keda", "port": 8080},
        "scaler": "keda-add-ons-http-external-scaler.keda:9090",
        "target_pending_requests": 1,
        "wait_seconds": 1517,
    },
    "cooldown_seconds": 900,
    "polling_interval_seconds": 15,
    "behavior": {
        "up_window_seconds": 60,
        "up": {"type": "Pods", "value": 4, "periodSeconds": 60},
        "down_window_seconds": 874,
        "down": {"type": "Pods", "value": 1, "periodSeconds": 300},
    },
    "prometheus": {
        "address": "https://monitoring.googleapis.com/v1/projects/p/location/global/prometheus",
        "query": 'sum(vllm:num_requests_waiting{namespace="chat"})',
        "threshold": "4",
        "auth_provider": "gcp",
    },
    "scrape": {
        "selector": {"gpuplat.dev/workload": "chat"},
        "port": "http",
        "path": "/metrics",
        "interval": "15s",
    },
}


def plan(root: Path, classes: list[dict[str, object]], zero: dict[str, object]) -> str:
    """`terraform plan` of a root calling both modules: ``rc=N`` and its output, one line."""
    for module in ("gpu-platform", "scale-to-zero"):
        folder = root / module
        folder.mkdir(parents=True)
        for name, text in release_files(latest(module)).items():
            (folder / name).write_text(text, encoding="utf-8")
    platform = {"cloud": "gke", "device_plugin": "managed", "dcgm": "managed"}
    (root / "main.tf").write_text(
        'provider "kubernetes" {}\nprovider "helm" {}\n\n'
        'module "platform" {\n  source = "./gpu-platform"\n\n'
        f"{attributes({**platform, 'charts': {}, 'compute_classes': classes}, 1)}\n}}\n\n"
        'module "zero" {\n  source = "./scale-to-zero"\n\n'
        f"{attributes(zero, 1)}\n}}\n",
        encoding="utf-8",
    )
    cli = build_stand_ins()
    done = run(cli, root, "init", "-input=false", timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run(cli, root, "plan", "-input=false", timeout=600)
    # Terraform wraps diagnostics at 80 columns: compare the words.
    return " ".join(f"rc={done.returncode} {done.stdout} {done.stderr}".split())


def test_the_objects_gpuplat_renders_plan(tmp_path: Path) -> None:
    out = plan(tmp_path, [GOOD.manifest()], ZERO)
    assert out.startswith("rc=0"), out
    assert 'module.platform.kubernetes_manifest.compute_class["gpuplat-l4"] will be created' in out
    assert "module.zero.kubernetes_manifest.scaled_object will be created" in out
    assert "module.zero.kubernetes_manifest.prometheus_auth[0] will be created" in out
    assert "module.zero.kubernetes_manifest.http_route[0] will be created" in out
    assert "module.zero.kubernetes_manifest.pod_monitoring[0] will be created" in out


def test_a_trigger_authentication_its_crd_refuses_fails_the_plan(tmp_path: Path) -> None:
    queue = {**ZERO["prometheus"], "auth_provider": "gke"}  # type: ignore[dict-item]
    out = plan(tmp_path, [GOOD.manifest()], {**ZERO, "prometheus": queue})
    assert out.startswith("rc=1"), out
    assert "module.zero.kubernetes_manifest.prometheus_auth[0]" in out
    assert "spec.podIdentity.provider" in out


def test_a_compute_class_its_crd_refuses_fails_the_plan(tmp_path: Path) -> None:
    bad = GOOD.manifest()
    spec = bad["spec"]
    assert isinstance(spec, dict)
    spec["priorities"] = [{"nodepools": ["l4-od"]}, {"nodepools": ["l4-spot"], "spot": True}]
    spec["nodePoolAutoCreation"] = {"enabled": False, "autoscale": True}
    out = plan(tmp_path, [bad], ZERO)
    assert out.startswith("rc=1"), out
    assert "Error: The API server would refuse this object (a CEL rule of its CRD)" in out
    assert "ComputeClass spec.priorities[1]: Nodepool field cannot be set along with" in out
    assert "Error: Manifest configuration incompatible with resource schema" in out
    assert "spec.nodePoolAutoCreation.autoscale: unknown field autoscale" in out
    assert 'module.platform.kubernetes_manifest.compute_class["gpuplat-l4"]' in out


def test_a_scaled_object_its_documentation_refuses_fails_the_plan(tmp_path: Path) -> None:
    http = {**ZERO["http"], "scaler": "http://scaler.keda"}  # type: ignore[dict-item]
    out = plan(tmp_path, [GOOD.manifest()], {**ZERO, "http": http})
    assert out.startswith("rc=1"), out
    assert "Error: This object would be refused (a rule its documentation states)" in out
    assert "an external-push trigger needs metadata.scalerAddress as host:port" in out
    assert "module.zero.kubernetes_manifest.scaled_object" in out
