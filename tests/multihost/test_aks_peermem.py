"""GPUDirect RDMA on AKS InfiniBand pools with the GPU Operator: its driver container also loads
nvidia-peermem (the chart's driver.rdma, gpu-operator v26.7.0 values.yaml), built against the
Network Operator's DOCA driver container, not a MOFED on the host (useHostMofed false). Where
AKS installs the driver itself, nothing loads nvidia-peermem: validate warns at the pool.

The worked example is Llama 3.1 405B on 2 x Standard_ND96isr_H100_v5
(tests/multihost/data/aks-nd-llama405b), with the GPU Operator installing the driver; ``MANAGED``
turns it back to AKS's own driver and the NVIDIA device plugin.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from gpuplat import catalog
from gpuplat.addons import plan_addons
from gpuplat.hcl.writer import attributes
from gpuplat.releases.versions import latest, release_files
from gpuplat.render.platform import platform_view
from gpuplat.spec.load import load_project
from gpuplat.workload.daemonsets import node_pods
from tests.multihost.test_group import DATA, TODAY
from tests.support.cli import run as gpuplat
from tests.support.standin import build_stand_ins, run

EXAMPLE = "aks-nd-llama405b"
MANAGED = (
    (
        "        driver:\n          install: none # the GPU Operator's driver container, with nvidia-peermem\n",
        "",
    ),
    ("  device_plugin: gpu-operator # its driver loads nvidia-peermem for GPUDirect RDMA\n", ""),
)


def project(tmp_path: Path, *patches: tuple[str, str]) -> Path:
    folder = tmp_path / EXAMPLE
    shutil.copytree(DATA / EXAMPLE, folder)
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in patches:
        assert old in text, old
        text = text.replace(old, new, 1)
    spec.write_text(text, encoding="utf-8")
    return folder


def test_the_gpu_operator_loads_peermem_beside_the_network_operator(tmp_path: Path) -> None:
    folder = project(tmp_path)
    checked = gpuplat("validate", "--strict", cwd=folder)
    assert checked.exit_code == 0, checked.stderr
    assert "warning" not in checked.stderr.lower()
    env = load_project(folder, today=TODAY).envs["dev"]
    (cluster,) = env.spec.clusters
    plan = plan_addons(env.spec, cluster)
    assert (plan.device_plugin, plan.operator_driver) == ("gpu-operator", True)
    assert plan.network_operator and plan.gpudirect_rdma
    args = platform_view(env, cluster).args
    assert args["gpudirect_rdma"] is True and args["network_operator"] is True


def test_with_aks_driver_validate_warns_at_the_pool(tmp_path: Path) -> None:
    folder = project(tmp_path, *MANAGED)
    checked = gpuplat("validate", cwd=folder)
    assert checked.exit_code == 0, checked.stderr
    assert "loads no nvidia-peermem" in checked.stderr
    assert "clusters[0].node_pools[0].infiniband" in checked.stderr
    env = load_project(folder, today=TODAY).envs["dev"]
    (cluster,) = env.spec.clusters
    assert not plan_addons(env.spec, cluster).gpudirect_rdma
    assert "gpudirect_rdma" not in platform_view(env, cluster).args
    # One NFD here too: the device plugin chart's (its workers list PCI class 02, so they
    # label the HCAs); the Network Operator's own stays off.
    (pool,) = cluster.node_pools
    shape = catalog.shape("aks", pool.machine_type)
    assert shape is not None
    pods = node_pods(env.spec, cluster, pool, shape)
    assert pods is not None
    assert [p.name for p in pods if "node-feature-discovery" in p.name] == [
        "node-feature-discovery-worker"
    ]


@pytest.mark.terraform
def test_the_module_plans_driver_rdma_only_when_asked(tmp_path: Path) -> None:
    charts = {
        name: {"repository": pin.repository, "chart": pin.chart, "version": pin.version}
        for name in ("gpu-operator", "network-operator", "nvidia-device-plugin")
        for pin in [catalog.chart(name)]
    }
    calls = {
        "rdma": {
            "cloud": "aks",
            "device_plugin": "gpu-operator",
            "operator_driver": True,
            "network_operator": True,
            "gpudirect_rdma": True,
            "dcgm": "operator",
        },
        "plain": {
            "cloud": "aks",
            "device_plugin": "gpu-operator",
            "operator_driver": True,
            "dcgm": "operator",
        },
        "managed": {
            "cloud": "aks",
            "device_plugin": "nvidia-device-plugin",
            "plugin_pools": ["ndh100"],
            "network_operator": True,
        },
    }
    module = tmp_path / "gpu-platform"
    module.mkdir()
    for name, text in release_files(latest("gpu-platform")).items():
        (module / name).write_text(text, encoding="utf-8")
    blocks = "".join(
        f'module "{name}" {{\n  source = "./gpu-platform"\n\n'
        f"{attributes({**args, 'charts': charts}, 1)}\n}}\n\n"
        for name, args in calls.items()
    )
    (tmp_path / "main.tf").write_text(
        'provider "kubernetes" {}\nprovider "helm" {}\n\n' + blocks, encoding="utf-8"
    )
    cli = build_stand_ins()
    for step in (("init", "-input=false"), ("plan", "-input=false", "-out=p.tfplan")):
        done = run(cli, tmp_path, *step, timeout=600)
        assert done.returncode == 0, f"terraform {step[0]}:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, tmp_path, "show", "-json", "p.tfplan", timeout=600)
    planned = {
        c["address"]: c["change"]["after"] for c in json.loads(shown.stdout)["resource_changes"]
    }

    def driver(call: str) -> object:
        values = planned[f"module.{call}.helm_release.gpu_operator[0]"]["values"]
        return yaml.safe_load(values[0])["driver"]

    assert driver("rdma") == {"enabled": True, "rdma": {"enabled": True, "useHostMofed": False}}
    assert driver("plain") == {"enabled": True}
    # One NFD where the GPU Operator runs: its workers label the HCAs (class 0207, vendor 15b3)
    # that the Network Operator's daemonsets select; the Network Operator's own NFD is off.
    # The same beside the device plugin chart, whose NFD workers list PCI class 02.
    for call in ("rdma", "managed"):
        network = planned[f"module.{call}.helm_release.network_operator[0]"]["values"]
        assert yaml.safe_load(network[0])["nfd"] == {"enabled": False}, call
    assert "module.managed.helm_release.device_plugin[0]" in planned
