"""`vendor --calls --existing-cluster`: pools attached to a cluster the repository already has.

No second cluster of the same name: the calls read the cluster through the cloud's data source
and keep every input gpuplat computes for the pools (e.g. the ephemeral-storage template that
scale-from-zero needs). Checked by the real terraform: `validate` with the real aws provider
(EKS) and with the schema-serving stand-ins (GKE's google, AKS's azurerm provider schemas).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplat.errors import ExitCode
from tests.support.cli import run
from tests.support.specs import project
from tests.support.standin import build_stand_ins, with_real_aws
from tests.support.standin import run as standin_run
from tests.vendoring.repos import INTO, ROOT, make_repo, snapshot, validate

pytestmark = pytest.mark.terraform

ROLE = "arn:aws:iam::123456789012:role/acme-eks-nodes"


def _calls(repo: Path, root: str, cluster: str) -> str:
    return (repo / root / f"gpuplat_{cluster}.tf").read_text(encoding="utf-8")


def _no_cluster_module(text: str, cluster: str) -> None:
    assert f'module "cluster_{cluster}"' not in text
    assert f'module "network_{cluster}"' not in text
    assert f"module.cluster_{cluster}." not in text


def test_eks_pools_join_the_existing_cluster_and_validate_for_real(tmp_path: Path) -> None:
    spec = project(tmp_path / "project", example="eks-l4-vllm")
    repo = make_repo(tmp_path / "repo")
    args = ("vendor", repo, "--into", INTO, "--calls", ROOT, "-e", "prod")
    result = run(*args, "--existing-cluster", "inference-use1", "--node-role", ROLE, cwd=spec)
    assert result.exit_code == 0, result.stderr
    text = _calls(repo, ROOT, "inference-use1")
    _no_cluster_module(text, "inference-use1")
    data = "data.aws_eks_cluster.cluster_inference-use1"
    assert 'data "aws_eks_cluster" "cluster_inference-use1" {\n  name = "inference-use1"\n}' in text
    assert f"cluster_name       = {data}.name\n" in text
    assert f"kubernetes_version = {data}.version\n" in text
    assert f"subnet_ids         = tolist({data}.vpc_config[0].subnet_ids)\n" in text
    assert f'node_role_arn      = "{ROLE}"\n' in text
    # What gpuplat computes for the pool is kept: scale from zero needs the disk template.
    assert 'ephemeral-storage = "178Gi"' in text
    assert f"--existing-cluster inference-use1 --node-role {ROLE}" in text

    validated = validate(repo / ROOT, tmp_path / "tf")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert run("vendor", "--check", repo).exit_code == 0


def test_an_existing_eks_cluster_needs_the_node_role_and_a_cluster_of_the_spec(
    tmp_path: Path,
) -> None:
    spec = project(tmp_path / "project", example="eks-l4-vllm")
    repo = make_repo(tmp_path / "repo")
    before = snapshot(repo)
    args = ("vendor", repo, "--into", INTO, "--calls", ROOT, "-e", "prod")
    no_role = run(*args, "--existing-cluster", "inference-use1", cwd=spec)
    assert no_role.exit_code == ExitCode.ERROR
    assert "does not say its nodes' IAM role" in no_role.stderr
    assert "--node-role arn:aws:iam::ACCOUNT:role/NAME" in no_role.stderr
    typo = run(*args, "--existing-cluster", "inference-us1", "--node-role", ROLE, cwd=spec)
    assert typo.exit_code == ExitCode.ERROR
    assert "--existing-cluster inference-us1: no such cluster in the spec" in typo.stderr
    assert "did you mean inference-use1?" in typo.stderr
    later = run(*args, "--stage", "platform", "--existing-cluster", "inference-use1", cwd=spec)
    assert later.exit_code == ExitCode.ERROR
    assert "infra stage" in later.stderr
    assert snapshot(repo) == before  # nothing written


def _stand_in_root(repo: Path, root: str, provider: str, version: str) -> None:
    folder = repo / root
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "versions.tf").write_text(
        "terraform {\n  required_providers {\n"
        f'    {provider} = {{\n      source  = "hashicorp/{provider}"\n'
        f'      version = "{version}"\n    }}\n  }}\n}}\n',
        encoding="utf-8",
    )


def _validate_with_stand_ins(root: Path, tmp_path: Path) -> None:
    cli = with_real_aws(build_stand_ins(), tmp_path)
    init = standin_run(cli, root, "init", "-backend=false", "-input=false", timeout=300)
    assert init.returncode == 0, init.stdout + init.stderr
    done = standin_run(cli, root, "validate")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "The configuration is valid" in done.stdout


def test_gke_pools_join_the_existing_cluster_and_validate(tmp_path: Path) -> None:
    spec = project(tmp_path / "project", example="gke-l4-vllm")
    repo = make_repo(tmp_path / "repo")
    root = "terraform/live/prod/us-central1"
    _stand_in_root(repo, root, "google", ">= 6.50")
    args = ("vendor", repo, "--into", INTO, "--calls", root, "-e", "prod")
    result = run(*args, "--existing-cluster", "inference-us", cwd=spec)
    assert result.exit_code == 0, result.stderr
    text = _calls(repo, root, "inference-us")
    _no_cluster_module(text, "inference-us")
    data = "data.google_container_cluster.cluster_inference-us"
    lookup = re.search(
        r'data "google_container_cluster" "cluster_inference-us" \{\n(.*?)\n\}', text, re.S
    )
    assert lookup is not None
    assert lookup.group(1).splitlines() == [
        '  name = "inference-us"',
        '  location = "us-central1"',
        '  project = "acme-inference-prod"',
    ]
    assert f"cluster         = {data}.name\n" in text
    assert f"service_account = {data}.node_config[0].service_account\n" in text
    assert f"network_tags = {data}.node_config[0].tags\n" in text
    _validate_with_stand_ins(repo / root, tmp_path)


def test_aks_pools_and_identities_join_the_existing_cluster_and_validate(tmp_path: Path) -> None:
    spec = project(tmp_path / "project", example="aks-a100-vllm")
    repo = make_repo(tmp_path / "repo")
    root = "terraform/live/prod/eastus"
    _stand_in_root(repo, root, "azurerm", ">= 4.0")
    args = ("vendor", repo, "--into", INTO, "--calls", root, "-e", "prod")
    result = run(*args, "--existing-cluster", "inference-eus", cwd=spec)
    assert result.exit_code == 0, result.stderr
    text = _calls(repo, root, "inference-eus")
    _no_cluster_module(text, "inference-eus")
    data = "data.azurerm_kubernetes_cluster.cluster_inference-eus"
    assert (
        'data "azurerm_kubernetes_cluster" "cluster_inference-eus" {\n'
        '  name = "inference-eus"\n  resource_group_name = "acme-inference-prod"\n}'
    ) in text
    assert f"kubernetes_cluster_id = {data}.id\n" in text
    assert f"vnet_subnet_id        = {data}.agent_pool_profile[0].vnet_subnet_id\n" in text
    assert f"oidc_issuer_url     = {data}.oidc_issuer_url\n" in text
    _validate_with_stand_ins(repo / root, tmp_path)


def test_eks_pools_plan_against_the_cluster_the_account_has(tmp_path: Path) -> None:
    """Real terraform plan with the real aws provider against moto holding an EKS cluster of
    the spec's name: the data source reads it, and the node group is planned into that cluster,
    on its Kubernetes version and in its subnets; no cluster is planned."""
    from tests.eks.terraform import mirror_env, terraform
    from tests.support.moto import aws_env, aws_provider_block, moto_server

    spec = project(tmp_path / "project", example="eks-l4-vllm")
    repo = tmp_path / "repo"
    root = repo / "live"
    root.mkdir(parents=True)
    with moto_server() as moto:
        ec2 = moto.client("ec2")
        vpc = ec2.create_vpc(CidrBlock="10.60.0.0/16")["Vpc"]["VpcId"]
        subnets = sorted(
            ec2.create_subnet(VpcId=vpc, CidrBlock=f"10.60.{i}.0/24", AvailabilityZone=zone)[
                "Subnet"
            ]["SubnetId"]
            for i, zone in enumerate(("us-east-1a", "us-east-1b"))
        )
        moto.client("eks").create_cluster(
            name="inference-use1",
            version="1.33",
            roleArn="arn:aws:iam::123456789012:role/acme-eks-cluster",
            resourcesVpcConfig={"subnetIds": subnets},
        )
        (root / "providers.tf").write_text(
            aws_provider_block(moto.endpoint, ("eks", "ec2", "iam", "sts", "autoscaling")),
            encoding="utf-8",
        )
        args = ("vendor", repo, "--calls", "live", "-e", "dev")
        result = run(*args, "--existing-cluster", "inference-use1", "--node-role", ROLE, cwd=spec)
        assert result.exit_code == 0, result.stderr

        env = {**mirror_env(tmp_path / "tf"), **aws_env()}
        env["TF_DATA_DIR"] = str(tmp_path / "tf" / "data")
        init = terraform(["init", "-backend=false", "-input=false", "-no-color"], root, env)
        assert init.returncode == 0, init.stdout + init.stderr
        plan = terraform(["plan", "-input=false", "-no-color", "-out=p.tfplan"], root, env, 600)
        assert plan.returncode == 0, plan.stdout + plan.stderr
        shown = terraform(["show", "-json", "p.tfplan"], root, env)
    doc = json.loads(shown.stdout)
    changes = {c["address"]: c for c in doc["resource_changes"]}
    groups = [c for c in changes.values() if c["type"] == "aws_eks_node_group"]
    assert len(groups) == 1
    planned = groups[0]["change"]["after"]
    assert planned["cluster_name"] == "inference-use1"
    assert planned["version"] == "1.33"  # the existing cluster's, not the spec's
    assert sorted(planned["subnet_ids"]) == subnets
    assert planned["node_role_arn"] == ROLE
    assert not [c for c in changes.values() if c["type"] in ("aws_eks_cluster", "aws_vpc")]
