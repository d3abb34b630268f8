"""Helpers for the EKS tests that run the real terraform with the real aws provider."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gpuplat.terraform import ValidateResult, parse_validate
from tests.support.cli import run
from tests.support.moto import write_cli_config
from tests.support.realparts import terraform_bin, terraform_env
from tests.support.specs import project

EXAMPLE = "eks-l4-vllm"
VARIANT_PATCHES = (
    # The L4 pool as a capacity ladder: a capacity reservation, then on-demand, then spot.
    (
        "        capacity:\n          type: spot\n",
        "        capacity:\n"
        "          - reservation: cr-0123456789abcdef2\n"
        "            zones: [us-east-1a]\n"
        "          - on-demand\n"
        "          - spot\n",
    ),
    # An H100 capacity block with EFA (no new placement group: EC2 refuses one with reserved
    # capacity), Arm GPU nodes with time-slicing, admins, a KMS key, SSM access. (Bottlerocket
    # runs its own device plugin, which the GPU Operator below would double: its user data is
    # planned in test_node_group_plan.py.)
    (
        '    kubernetes:\n      version: "1.35"\n',
        '    kubernetes:\n      version: "1.35"\n    aws:\n'
        "      admins: [arn:aws:iam::123456789012:role/platform-admins]\n"
        "      kms_key_arn: arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef\n"
        "      ssm_access: true\n",
    ),
    (
        "        labels:\n          team: ml-platform\n",
        "        labels:\n          team: ml-platform\n"
        "      - name: h100\n        machine_type: p5.48xlarge\n        zones: [us-east-1a]\n"
        "        capacity:\n          type: reservation\n"
        "          reservation: cr-0123456789abcdef0\n          block: true\n"
        "        autoscaling:\n          min_nodes: 0\n          max_nodes: 2\n"
        "        efa: true\n"
        "        taints:\n          - key: dedicated\n            value: training\n"
        "            effect: NoExecute\n"
        "      - name: t4g\n        machine_type: g5g.xlarge\n        image: AL2023_ARM_64_NVIDIA\n"
        "        sharing:\n          mode: time-slicing\n          max_clients: 4\n"
        "        capacity:\n          type: reservation\n"
        "          reservation: cr-0123456789abcdef1\n        zones: [us-east-1b]\n",
    ),
    # A second cluster in another region, in an existing VPC, behind an emulator endpoint.
    (
        "\naddons:\n",
        "  - name: inference-usw2\n    cloud: eks\n    region: us-west-2\n"
        "    aws:\n      endpoint: http://localhost:4566\n"
        "    network:\n      network: vpc-0123456789abcdef0\n"
        "      subnet_ids: [subnet-0123456789abcdef0, subnet-0123456789abcdef1]\n"
        "      public_endpoint: false\n"
        "      private_endpoint_networks:\n        - cidr: 10.8.0.0/16\n          name: ci-runners\n"
        "    system_pool:\n      machine_type: m7g.large\n      min_nodes: 2\n"
        "    node_pools:\n      - name: l40s\n        machine_type: g6e.12xlarge\n"
        "        zones: [us-west-2a]\n        driver:\n          install: none\n"
        "\naddons:\n",
    ),
    ("  device_plugin: auto", "  device_plugin: gpu-operator"),
)


def render_example(folder: Path, patches: tuple[tuple[str, str], ...] = ()) -> Path:
    """Init the EKS example into ``folder`` (patched) and render every environment."""
    project(folder, patches, example=EXAMPLE)
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    return folder


def mirror_env(tmp: Path) -> dict[str, str]:
    """terraform's environment with a CLI config that installs aws from the mirror."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = terraform_env(tmp)
    env["TF_CLI_CONFIG_FILE"] = str(write_cli_config(tmp / "mirror.terraformrc"))
    env.pop("TF_PLUGIN_CACHE_DIR", None)
    return env


def terraform(
    args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [terraform_bin(), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def validate(root: Path, tmp: Path) -> ValidateResult:
    """``terraform init -backend=false`` then ``terraform validate -json`` of one root."""
    env = mirror_env(tmp)
    env["TF_DATA_DIR"] = str(tmp / "data")
    init = terraform(["init", "-backend=false", "-input=false", "-no-color"], root, env)
    assert init.returncode == 0, init.stdout + init.stderr
    done = terraform(["validate", "-json", "-no-color"], root, env)
    return parse_validate(done.stdout)
