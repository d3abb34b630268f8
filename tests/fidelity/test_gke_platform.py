"""What the released gpu-platform module plans on GKE, through the schema stand-in providers.

Real `terraform plan` of a root that calls the module three times (GPU Operator and NVIDIA
device plugin on GKE, the device plugin on EKS) shows the values GKE needs and no other cloud
gets: a namespace with a ResourceQuota that admits the system-critical priority classes before
each release whose pods use them (GKE admits such pods nowhere else; NVIDIA/gpu-operator #660),
the container toolkit reading containerd's config from its file (GKE 1.33+, NVIDIA/cloud-native-
docs #312) and the device plugin's driver root under /home/kubernetes/bin/nvidia. The stand-in
plans what is configured; what GKE's admission and the charts do with it is not run here.
"""

from __future__ import annotations

import json

import pytest
import yaml

from gpuplat import catalog
from gpuplat.hcl.writer import attributes
from gpuplat.releases.versions import latest, release_files
from tests.support.standin import build_stand_ins, run

pytestmark = pytest.mark.terraform

CHARTS = {
    name: {"repository": pin.repository, "chart": pin.chart, "version": pin.version}
    for name in ("gpu-operator", "nvidia-device-plugin", "nvidia-dra-driver")
    for pin in [catalog.chart(name)]
}
CALLS = {
    "gke_operator": {
        "cloud": "gke",
        "device_plugin": "gpu-operator",
        "gke_host_paths": True,
        "dcgm": "operator",
    },
    "gke_plugin": {
        "cloud": "gke",
        "device_plugin": "nvidia-device-plugin",
        "dcgm": "managed",
        # The Helm device plugin runs on the pools it serves; none would leave the chart out.
        "plugin_pools": ["l4"],
        "gpu_pools": ["l4"],
    },
    "gke_dra": {"cloud": "gke", "device_plugin": "dra", "gke_host_paths": True, "dcgm": "managed"},
    "eks_plugin": {
        "cloud": "eks",
        "device_plugin": "nvidia-device-plugin",
        "dcgm": "off",
        "plugin_pools": ["l4"],
        "gpu_pools": ["l4"],
    },
}


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    root = tmp_path_factory.mktemp("gke-platform")
    module = root / "gpu-platform"
    module.mkdir()
    for name, text in release_files(latest("gpu-platform")).items():
        (module / name).write_text(text, encoding="utf-8")
    calls = "".join(
        f'module "{name}" {{\n  source = "./gpu-platform"\n\n'
        f"{attributes({**args, 'charts': CHARTS}, 1)}\n}}\n\n"
        for name, args in CALLS.items()
    )
    (root / "main.tf").write_text(
        'provider "kubernetes" {}\nprovider "helm" {}\n\n' + calls, encoding="utf-8"
    )
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=p.tfplan")):
        done = run(cli, root, *args, timeout=600)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, root, "show", "-json", "p.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr
    changes = json.loads(shown.stdout)["resource_changes"]
    return {c["address"]: c["change"]["after"] for c in changes}


def test_gke_releases_wait_for_a_quota_that_admits_critical_pods(
    planned: dict[str, dict[str, object]],
) -> None:
    for call, namespace in (
        ("gke_operator", "gpu-operator"),
        ("gke_plugin", "nvidia-device-plugin"),
        ("gke_dra", "gpu-operator"),
        ("gke_dra", "nvidia-dra-driver"),
    ):
        quota = planned[f'module.{call}.kubernetes_resource_quota_v1.critical["{namespace}"]']
        (spec,) = quota["spec"]
        (selector,) = spec["scope_selector"]
        (expression,) = selector["match_expression"]
        assert expression["scope_name"] == "PriorityClass" and expression["operator"] == "In"
        assert set(expression["values"]) == {"system-node-critical", "system-cluster-critical"}
        assert quota["metadata"][0]["namespace"] == namespace
        assert f'module.{call}.kubernetes_namespace_v1.critical["{namespace}"]' in planned
    assert planned["module.gke_operator.helm_release.gpu_operator[0]"]["create_namespace"] is False
    assert planned["module.gke_plugin.helm_release.device_plugin[0]"]["create_namespace"] is False
    assert planned["module.gke_dra.helm_release.dra_driver[0]"]["create_namespace"] is False
    # Other clouds gate no priority class: no quota there, and the release makes its namespace.
    assert not [a for a in planned if a.startswith("module.eks_plugin.kubernetes_")]
    assert planned["module.eks_plugin.helm_release.device_plugin[0]"]["create_namespace"] is True


def _values(planned: dict[str, dict[str, object]], address: str) -> dict[str, object]:
    values = planned[address]["values"]
    assert isinstance(values, list)
    loaded: dict[str, object] = yaml.safe_load(values[0])
    return loaded


def test_gke_toolkit_reads_the_containerd_config_file(
    planned: dict[str, dict[str, object]],
) -> None:
    operator = _values(planned, "module.gke_operator.helm_release.gpu_operator[0]")
    toolkit = operator["toolkit"]
    assert isinstance(toolkit, dict)
    assert toolkit["env"] == [{"name": "RUNTIME_CONFIG_SOURCE", "value": "file"}]
    assert toolkit["installDir"] == "/home/kubernetes/bin/nvidia"


def test_device_plugin_finds_gke_driver(planned: dict[str, dict[str, object]]) -> None:
    gke = _values(planned, "module.gke_plugin.helm_release.device_plugin[0]")
    assert gke["nvidiaDriverRoot"] == "/home/kubernetes/bin/nvidia"
    eks = _values(planned, "module.eks_plugin.helm_release.device_plugin[0]")
    assert "nvidiaDriverRoot" not in eks
