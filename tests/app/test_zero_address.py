"""An address outside the cluster for a scale-to-zero workload: a load balancer in front of the
KEDA HTTP interceptor, not the model server, in both renderings.

At zero replicas the model server's Service has no endpoints, and every request must pass the
interceptor, which holds it while a replica starts and counts it for KEDA. The load balancer is
a Service in the interceptor's namespace selecting its pods (the selector the chart's own proxy
Service uses); the names clients send reach the interceptor's routing table (the
HTTPScaledObject's hosts); the front door's health check only opens a TCP connection, since an
HTTP probe through the interceptor would be held and would start a GPU replica.
"""

from __future__ import annotations

from pathlib import Path

import hcl2
import pytest
import yaml

from gpuplat.workload.zerodoor import INTERCEPTOR_SELECTOR
from tests.app.test_failover import failover_project
from tests.support.cli import run
from tests.support.hclread import modules, plain

ZERO = {"scale_to_zero": True, "replicas": {"min": 0, "max": 4}}
DOOR = {"dns": "route53", "zone_id": "Z0123456789ABC", "name": "chat.example.com"}
EXPECTED = {
    "inference-us": {"cloud.google.com/l4-rbs": "enabled"},
    "inference-use1": {"service.beta.kubernetes.io/aws-load-balancer-type": "nlb"},
}


def _project(tmp_path: Path) -> Path:
    folder = failover_project(
        tmp_path / "p",
        **ZERO,
        address={"scheme": "external", "hosts": ["api.chat.example.com"]},
        front_door=DOOR,
    )
    overlay = folder / "envs" / "dev.yaml"
    data = yaml.safe_load(overlay.read_text(encoding="utf-8")) or {}
    for workload in data.get("workloads", []):
        workload.pop("replicas", None)
    overlay.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert run("render", "--manifests", "k8s", cwd=folder).exit_code == 0
    return folder


@pytest.mark.parametrize("cluster", ["inference-us", "inference-use1"])
def test_the_load_balancer_stands_in_front_of_the_interceptor(tmp_path: Path, cluster: str) -> None:
    folder = _project(tmp_path)
    root = folder / "envs" / "dev" / cluster / "serving"
    calls = modules(root / "main.tf")
    # The model server keeps its in-cluster Service: nothing bypasses the interceptor.
    assert "load_balancer" not in calls[f"serve_chat_{cluster}"]
    http = calls[f"zero_chat_{cluster}"]["http"]
    assert http["door"] == {  # type: ignore[index]
        "namespace": "keda",
        "selector": dict(INTERCEPTOR_SELECTOR),
        "target_port": "proxy",
        "annotations": EXPECTED[cluster],
    }
    hosts = http["front"]["hosts"]  # type: ignore[index]
    assert hosts[-2:] == ["api.chat.example.com", "chat.example.com"]
    door = calls[f"door_chat_{cluster}"]
    assert door["address"] == f"${{module.zero_chat_{cluster}.address}}"
    assert door["health"] == {
        "path": "/health",
        "port": 8080,
        "interval": 30,
        "failure_threshold": 3,
        "type": "TCP",
    }
    outputs = {
        k: v
        for block in plain(hcl2.loads((root / "outputs.tf").read_text()))["output"]  # type: ignore[index]
        for k, v in block.items()
    }
    placed = outputs["placements"]["value"][f"chat@{cluster}"]  # type: ignore[index]
    assert placed["address"] == f"${{module.zero_chat_{cluster}.address}}"
    manifest = folder / "k8s" / "dev" / cluster / "serving" / "chat.yaml"
    docs = [d for d in yaml.safe_load_all(manifest.read_text(encoding="utf-8")) if d]
    balancers = [
        (d["metadata"]["namespace"], d["metadata"]["name"], d["metadata"].get("annotations"))
        for d in docs
        if d.get("kind") == "Service" and d["spec"].get("type") == "LoadBalancer"
    ]
    assert balancers == [("keda", "chat-door", EXPECTED[cluster])]
    keda = manifest.with_name("chat.keda.yaml").read_text(encoding="utf-8")
    scaled = next(d for d in yaml.safe_load_all(keda) if d and d["kind"] == "HTTPScaledObject")
    assert scaled["spec"]["hosts"] == hosts


def test_the_aks_model_server_probe_reads_its_path_over_http() -> None:
    """cloud-provider-azure reads the request path only for an HTTP(S) probe, and a Service
    port without appProtocol or a protocol annotation is probed over TCP."""
    from gpuplat.targets import target

    aks = target("aks")
    served = aks.address_annotations("external", "/health")
    prefix = "service.beta.kubernetes.io/azure-load-balancer-health-probe-"
    assert served == {f"{prefix}request-path": "/health", f"{prefix}protocol": "http"}
    # In front of the interceptor: the port alone (the cloud's TCP default), no HTTP probe.
    assert aks.interceptor_annotations("external") == {}
    assert aks.interceptor_annotations("internal") == {
        "service.beta.kubernetes.io/azure-load-balancer-internal": "true"
    }
