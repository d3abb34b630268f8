"""The worked example's infra stage (2 x p5.48xlarge over EFA) planned, applied and destroyed
on moto.

The real terraform and the real aws provider 5.100.0 run the rendered root with every AWS API
and the state backend at moto, as tests/eks/test_moto.py does for the L4 example (same override
for the EKS APIs moto lacks). The plan is read back: the launch template's 32 EFA interfaces
(one per network card of a p5.48xlarge, EFA with ENA on the first), the cluster's one EFA
security group that admits its own members (eks-cluster), put on every EFA interface, and the
cluster placement group the template launches into. Then the root is applied (without the
placement group, which moto lacks), the EFA group, its two self-referencing rules and the launch
template's interfaces are read back from moto's EC2 API, and everything is destroyed.
"""

from __future__ import annotations

import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from gpuplat.terraform import Action, Terraform, find_binary
from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups
from tests.eks.test_moto import override
from tests.multihost.test_group import DATA
from tests.support.cli import run
from tests.support.moto import MotoServer, aws_env, moto_server, write_cli_config
from tests.support.realparts import terraform_bin

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

CLUSTER = "frontier-use1"
BUCKET = "acme-405b-tfstate"
KEYS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with aws_managed_policies(), node_groups_own_autoscaling_groups(), moto_server() as server:
        urllib.request.urlopen(
            urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
        ).close()
        yield server


def test_the_efa_group_pool_plans_applies_and_destroys_on_moto(
    moto: MotoServer, tmp_path: Path
) -> None:
    folder = tmp_path / "project"
    shutil.copytree(DATA / "eks-p5-llama405b", folder)
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    version = '    kubernetes:\n      version: "1.35"\n'
    backend = f"      bucket: {BUCKET}\n      region: us-east-1\n"
    text = text.replace(version, f"{version}    aws:\n      endpoint: {moto.endpoint}\n", 1)
    text = text.replace(backend, f"{backend}      endpoint: {moto.endpoint}\n", 1)
    spec.write_text(text, encoding="utf-8")
    done = run("render", cwd=folder)
    assert done.exit_code == 0, done.stderr
    root = folder / "envs" / "dev" / CLUSTER / "infra"
    (root / "moto_override.tf").write_text(override(f"cluster_{CLUSTER}"), encoding="utf-8")
    moto.create_bucket(BUCKET)
    tf = Terraform(
        find_binary(terraform_bin()),
        root,
        data_dir=tmp_path / "tfdata",
        plugin_cache_dir=tmp_path / "plugins",
        cli_config_file=write_cli_config(tmp_path / "terraformrc"),
        env=aws_env(),
    )
    tf.init()
    plan = tmp_path / "first.tfplan"
    assert tf.plan(plan).has_changes
    planned = tf.show_plan(plan)
    assert set(planned.counts()) == {Action.CREATE}
    types = {c.type for c in planned.changes}
    assert {"aws_placement_group", "aws_security_group", "aws_launch_template"} <= types
    after = {c.address: c.after for c in planned.changes if isinstance(c.after, dict)}
    pool = "module.pool_frontier-use1_p5"
    assert after[f"{pool}.aws_placement_group.this[0]"]["strategy"] == "cluster"
    interfaces = after[f"{pool}.aws_launch_template.this"]["network_interfaces"]
    assert isinstance(interfaces, list) and len(interfaces) == 32
    assert [i["network_card_index"] for i in interfaces] == list(range(32))
    assert interfaces[0]["interface_type"] == "efa"
    assert {i["interface_type"] for i in interfaces[1:]} == {"efa-only"}
    efa = f"module.cluster_{CLUSTER}.aws_security_group.efa[0]"
    assert efa in after, "the cluster's one EFA group"
    assert f"{pool}.aws_security_group.efa[0]" not in after, "no group of the node group's own"
    for way in ("ingress", "egress"):
        rule = after[f"module.cluster_{CLUSTER}.aws_vpc_security_group_{way}_rule.efa[0]"]
        assert rule["ip_protocol"] == "-1"
    tag = "k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/efa"
    assert f'{pool}.aws_autoscaling_group_tag.autoscaler["{tag}"]' in after

    # moto 5.2 has no EC2 placement groups (CreatePlacementGroup answers 500, which the provider
    # retries for as long as the apply runs): the apply leaves compact placement out, and so
    # does not claim a placement group was created. Everything else is as planned above.
    spec.write_text(
        text.replace(
            "        placement:\n          compact: true # a cluster placement group\n", ""
        ),
        encoding="utf-8",
    )
    done = run("render", cwd=folder)
    assert done.exit_code == 0, done.stderr
    plan = tmp_path / "applied.tfplan"
    tf.plan(plan)
    assert not any(c.type == "aws_placement_group" for c in tf.show_plan(plan).changes)
    tf.apply(plan)
    ec2 = boto3.client("ec2", endpoint_url=moto.endpoint, region_name="us-east-1", **KEYS)
    (group,) = [
        g
        for g in ec2.describe_security_groups()["SecurityGroups"]
        if g["GroupName"].startswith(f"{CLUSTER}-efa-")
    ]
    rules = ec2.describe_security_group_rules(
        Filters=[{"Name": "group-id", "Values": [group["GroupId"]]}]
    )["SecurityGroupRules"]
    assert {(r["IsEgress"], r["IpProtocol"]) for r in rules} >= {(False, "-1"), (True, "-1")}
    for rule in rules:
        if rule["IpProtocol"] == "-1" and "ReferencedGroupInfo" in rule:
            assert rule["ReferencedGroupInfo"]["GroupId"] == group["GroupId"]
    # The launch template's interfaces carry the cluster's EFA group.
    (template,) = [
        t
        for t in ec2.describe_launch_templates()["LaunchTemplates"]
        if t["LaunchTemplateName"].startswith(f"{CLUSTER}-p5-")
    ]
    version = ec2.describe_launch_template_versions(LaunchTemplateId=template["LaunchTemplateId"])[
        "LaunchTemplateVersions"
    ][0]["LaunchTemplateData"]
    interfaces = version["NetworkInterfaces"]
    assert len(interfaces) == 32
    assert all(group["GroupId"] in i["Groups"] for i in interfaces)

    # The apply has just created every resource and read each back: the destroy plan need not
    # refresh them again (terraform's own -refresh=false, as tests/eks/test_moto.py does).
    no_refresh = Terraform(
        tf.binary,
        root,
        data_dir=tf.data_dir,
        plugin_cache_dir=tf.plugin_cache_dir,
        cli_config_file=tf.cli_config_file,
        env={**aws_env(), "TF_CLI_ARGS_plan": "-refresh=false"},
    )
    gone = tmp_path / "destroy.tfplan"
    no_refresh.plan(gone, destroy=True)
    tf.apply(gone)
    assert tf.state_list() == []
    left = ec2.describe_security_groups()["SecurityGroups"]
    assert not [g for g in left if g["GroupName"].startswith(f"{CLUSTER}-efa-")]
