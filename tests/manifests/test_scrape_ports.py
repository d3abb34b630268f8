"""The collector scrapes the port the server serves its metrics on: Triton's own 8002 as a
named container port, beside the serving port; the model-server module has no HPA of its own."""

from __future__ import annotations

from pathlib import Path

import yaml

from gpuplat import crds
from gpuplat.releases.versions import latest
from tests.support.cli import run
from tests.support.specs import project

TRITON_PATCH = (
    ("    image: vllm/vllm-openai:v0.11.0\n", "    image: nvcr.io/nvidia/tritonserver:25.01-py3\n"),
    ("      - --gpu-memory-utilization=0.45\n", ""),
    (
        "      metric: vllm:num_requests_waiting\n",
        "      metric: nv_inference_pending_request_count\n",
    ),
)
"""The gke-l4-vllm example's server as NVIDIA Triton, scaled on its pending requests."""


def _serving(tmp_path: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    root = project(tmp_path, TRITON_PATCH)
    out = root / "k8s"
    result = run("render", "--manifests", out, cwd=root)
    assert result.exit_code == 0, result.stderr
    folder = out / "prod/inference-us/serving"
    keda = list(yaml.safe_load_all((folder / "chat.keda.yaml").read_text()))
    main = list(yaml.safe_load_all((folder / "chat.yaml").read_text()))
    return keda, main


def test_triton_metrics_port_is_named_and_scraped(tmp_path: Path) -> None:
    keda, main = _serving(tmp_path)
    deployment = next(d for d in main if d["kind"] == "Deployment")
    server = deployment["spec"]["template"]["spec"]["containers"][0]  # type: ignore[index]
    assert server["ports"] == [
        {"name": "http", "containerPort": 8000},
        {"name": "metrics", "containerPort": 8002},
    ]
    monitor = next(d for d in keda if d["kind"] == "PodMonitoring")
    (endpoint,) = monitor["spec"]["endpoints"]  # type: ignore[index]
    assert endpoint["port"] == "metrics" and endpoint["path"] == "/metrics"
    assert crds.check_object(monitor, crds.Result(), keda + main) == []
    scaled = next(d for d in keda if d["kind"] == "ScaledObject")
    (query,) = [t for t in scaled["spec"]["triggers"] if t["type"] == "prometheus"]  # type: ignore[index]
    assert query["metadata"]["query"] == 'sum(nv_inference_pending_request_count{namespace="chat"})'


def test_the_module_call_names_the_metrics_port(tmp_path: Path) -> None:
    root = project(tmp_path, TRITON_PATCH)
    assert run("render", cwd=root).exit_code == 0
    text = (root / "envs/prod/inference-us/serving/main.tf").read_text()
    assert "metrics_port = 8002" in text


def test_model_server_has_no_hpa_of_its_own() -> None:
    """KEDA's ScaledObject (scale-to-zero module) writes the one HPA; a second would fight it."""
    folder = latest("model-server").path
    for path in sorted(folder.glob("*.tf")):
        text = path.read_text()
        assert "horizontal_pod_autoscaler" not in text, path.name
        assert 'variable "hpa"' not in text, path.name
