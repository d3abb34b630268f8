"""addons.metrics.prometheus: in-cluster: the platform stage installs kube-prometheus-stack, a
PodMonitor beside each ScaledObject selects exactly the serving pods, and KEDA queries that
Prometheus without credentials; no prometheus_address needed on EKS or AKS."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuplat import crds
from gpuplat.targets.scaling import IN_CLUSTER_ADDRESS
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import project

IN_CLUSTER = (
    ("    dcgm_exporter: true\n", "    dcgm_exporter: true\n    prometheus: in-cluster\n"),
)


def _objects(folder: Path, name: str) -> list[dict[str, object]]:
    return list(yaml.safe_load_all((folder / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("example", "cluster", "patches"),
    [
        ("eks-l4-vllm", "inference-use1", IN_CLUSTER),
        ("aks-a100-vllm", "inference-eus", IN_CLUSTER),
        ("gke-l4-vllm", "inference-us", IN_CLUSTER),
    ],
)
def test_in_cluster_prometheus_scrapes_exactly_the_serving_pods(
    example: str, cluster: str, patches: tuple[tuple[str, str], ...], tmp_path: Path
) -> None:
    root = project(tmp_path, patches, example=example)
    out = root / "k8s"
    done = run("render", "--manifests", out, cwd=root)
    assert done.exit_code == 0, done.stderr
    folder = out / "prod" / cluster / "serving"
    keda, main = _objects(folder, "chat.keda.yaml"), _objects(folder, "chat.yaml")
    monitor = next(d for d in keda if d["kind"] == "PodMonitor")
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    deployment = next(d for d in main if d["kind"] == "Deployment")
    spec_ = monitor["spec"]
    assert isinstance(spec_, dict)
    assert spec_["selector"]["matchLabels"] == deployment["spec"]["selector"]["matchLabels"]  # type: ignore[index]
    (endpoint,) = spec_["podMetricsEndpoints"]
    ports = deployment["spec"]["template"]["spec"]["containers"][0]["ports"]  # type: ignore[index]
    assert endpoint["port"] in [p["name"] for p in ports] and endpoint["path"] == "/metrics"
    assert crds.check_object(monitor, crds.Result(), keda + main) == []
    assert not [d for d in keda if d["kind"] == "TriggerAuthentication"]
    scaled = next(d for d in keda if d["kind"] == "ScaledObject")
    (queue,) = [t for t in scaled["spec"]["triggers"] if t["type"] == "prometheus"]  # type: ignore[index]
    assert queue["metadata"]["serverAddress"] == IN_CLUSTER_ADDRESS
    assert "authenticationRef" not in queue
    # The platform stage installs the Prometheus the trigger asks.
    assert run("render", cwd=root).exit_code == 0
    platform = modules(root / "envs" / "prod" / cluster / "platform" / "main.tf")
    (args,) = platform.values()
    assert args["prometheus"] is True
    assert args["charts"]["kube-prometheus-stack"]["version"] == "88.5.3"  # type: ignore[index]


def test_no_in_cluster_prometheus_where_a_workload_names_its_own(tmp_path: Path) -> None:
    own = (
        "      target: 4\n",
        "      target: 4\n      prometheus_address: http://p.example:9090\n",
    )
    root = project(
        tmp_path,
        (*IN_CLUSTER, own),
        example="eks-l4-vllm",
    )
    assert run("render", cwd=root).exit_code == 0
    platform = modules(root / "envs" / "prod" / "inference-use1" / "platform" / "main.tf")
    (args,) = platform.values()
    assert args["prometheus"] is False
