"""Helm values of the gpu-platform module, evaluated by the real Terraform.

The module builds each chart's values from typed inputs; a conditional between objects of
different shapes would silently turn booleans into strings. Terraform's console evaluates the
module's values.tf with real inputs, and the result is checked type for type.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from gpuplat.releases.versions import latest, release_files
from tests.support.realparts import terraform_bin, terraform_env

CASES = {
    "gke-operator-mps": {
        "cloud": "gke",
        "device_plugin": "gpu-operator",
        "sharing": [{"name": "l4", "mode": "mps", "replicas": 4}],
        "gke_host_paths": True,
        "charts": {},
    },
    "eks-plugin-time-slicing": {
        "cloud": "eks",
        "device_plugin": "nvidia-device-plugin",
        "sharing": [{"name": "l4", "mode": "time-slicing", "replicas": 2}],
        "charts": {},
    },
    "eks-dra-mig": {
        "cloud": "eks",
        "device_plugin": "dra",
        "mig_strategy": "single",
        "operator_driver": True,
        "charts": {},
    },
}
EXPRESSION = (
    "jsonencode({device = local.device_plugin_values, operator = local.operator_values, "
    "dra = local.dra_values, keda = local.keda_http_values})"
)


def evaluate(tmp_path: Path, inputs: dict[str, object]) -> dict[str, object]:
    files = release_files(latest("gpu-platform"))
    for name in ("variables.tf", "values.tf"):
        (tmp_path / name).write_text(files[name])
    (tmp_path / "terraform.tfvars.json").write_text(json.dumps(inputs))
    done = subprocess.run(
        [terraform_bin(), "console"],
        input=EXPRESSION + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=terraform_env(tmp_path),
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(json.loads(done.stdout.strip()))
    return result


@pytest.mark.terraform
@pytest.mark.parametrize("case", sorted(CASES))
def test_values_keep_their_types(case: str, tmp_path: Path) -> None:
    values = evaluate(tmp_path, CASES[case])
    operator = values["operator"]
    assert isinstance(operator, dict)
    assert isinstance(operator["driver"]["enabled"], bool)
    assert isinstance(operator["devicePlugin"]["enabled"], bool)
    assert isinstance(operator["toolkit"]["enabled"], bool)
    if case == "gke-operator-mps":
        assert operator["toolkit"] == {
            "enabled": True,
            "installDir": "/home/kubernetes/bin/nvidia",
            # GKE 1.33+: the toolkit reads containerd's config file (cloud-native-docs #312).
            "env": [{"name": "RUNTIME_CONFIG_SOURCE", "value": "file"}],
        }
        assert operator["hostPaths"] == {"driverInstallDir": "/home/kubernetes/bin/nvidia"}
        config = operator["devicePlugin"]["config"]
        assert config["create"] is True and config["default"] == "default"
        assert yaml.safe_load(config["data"]["l4"]) == {
            "version": "v1",
            "flags": {"migStrategy": "none"},
            "sharing": {"mps": {"resources": [{"name": "nvidia.com/gpu", "replicas": 4}]}},
        }
    if case == "eks-plugin-time-slicing":
        assert operator["toolkit"] == {"enabled": False}
        assert "hostPaths" not in operator
        device = values["device"]
        assert isinstance(device, dict)
        shared = yaml.safe_load(device["config"]["map"]["l4"])
        assert shared["sharing"] == {
            "timeSlicing": {"resources": [{"name": "nvidia.com/gpu", "replicas": 2}]}
        }
    if case == "eks-dra-mig":
        assert operator["devicePlugin"] == {"enabled": False}
        assert operator["driver"] == {"enabled": True}
        assert operator["migManager"] == {"enabled": True}
        assert values["dra"]["nvidiaDriverRoot"] == "/run/nvidia/driver"


@pytest.mark.terraform
def test_gpu_daemonsets_tolerate_pool_taints_and_dcgm_stays_on_gpu_pools(tmp_path: Path) -> None:
    """Every GPU daemonset tolerates the pools' own taints; DCGM and the device plugin get
    node affinity to the pools they serve (the chart values named in the module's comments)."""
    files = release_files(latest("gpu-platform"))
    for name in ("variables.tf", "values.tf"):
        (tmp_path / name).write_text(files[name])
    inputs = {
        "cloud": "eks",
        "device_plugin": "nvidia-device-plugin",
        "gpu_pools": ["l4", "h100", "br"],
        "plugin_pools": ["l4", "h100"],
        "pool_tolerations": [{"key": "dedicated", "effect": "NoExecute"}],
        "charts": {},
    }
    (tmp_path / "terraform.tfvars.json").write_text(json.dumps(inputs))
    expression = (
        "jsonencode({device = local.device_plugin_values, operator = local.operator_values, "
        "dra = local.dra_values, dcgm = local.dcgm_values, efa = local.efa_values})"
    )
    done = subprocess.run(
        [terraform_bin(), "console"],
        input=expression + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=terraform_env(tmp_path),
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    values = json.loads(json.loads(done.stdout.strip()))
    expected = [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
        {"key": "dedicated", "operator": "Exists", "effect": "NoExecute"},
    ]
    device, operator = values["device"], values["operator"]
    assert device["tolerations"] == expected  # device plugin and its GFD daemonset
    assert device["nfd"]["worker"]["tolerations"] == expected
    assert operator["daemonsets"]["tolerations"] == expected
    assert operator["node-feature-discovery"]["worker"]["tolerations"] == expected
    assert values["dra"]["kubeletPlugin"]["tolerations"] == expected
    assert values["dcgm"]["tolerations"] == expected
    assert values["efa"]["tolerations"] == expected

    def pools_of(affinity: dict[str, object]) -> list[str]:
        terms = affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]  # type: ignore[index]
        (term,) = terms["nodeSelectorTerms"]  # type: ignore[index]
        (match,) = term["matchExpressions"]
        assert (match["key"], match["operator"]) == ("gpuplat.dev/pool", "In")
        return list(match["values"])

    assert pools_of(values["dcgm"]["affinity"]) == ["l4", "h100", "br"]
    assert pools_of(device["affinity"]) == ["l4", "h100"]
