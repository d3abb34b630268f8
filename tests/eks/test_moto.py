"""The EKS example's infra stage, applied and destroyed for real on moto.

The real terraform and the real aws provider 5.100.0 run the rendered root as gpuplat wrote it
(``aws.endpoint`` and the s3 backend pointed at moto, so the state and its lock file live in a
real, if emulated, bucket): init, plan, apply, a second plan, destroy. One lifecycle per run,
because destroying an EKS cluster is slow even on moto: the provider waits a random 0-60 s
before it calls DeleteCluster (its guard against the cluster still scaling), whatever the
timeouts say. Everything else takes a few seconds.

Where moto falls short of the real APIs it is said here, by name, with the reason:

- APIs moto does not implement: the root gets an override file that turns off what calls them
  (``MOTO_MISSING_APIS``); ``terraform validate`` (test_terraform.py) still checks them.
- behaviours moto lacks: filled in by tests/eks/moto_eks.py (AWS-managed IAM policies, the
  autoscaling group EKS creates for every node group).
- fields moto returns that the real APIs do not: the second plan is not empty, and must show
  exactly ``MOTO_ARTIFACTS``, nothing more and nothing less.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuplat.terraform import Action, Terraform, find_binary
from gpuplat.terraform.showplan import parse_plan
from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups
from tests.eks.terraform import render_example, terraform
from tests.support.moto import MotoServer, aws_env, moto_server, write_cli_config
from tests.support.realparts import terraform_bin

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

CLUSTER = "inference-use1"
BUCKET = "acme-inference-tfstate"
STATE_KEY = f"acme-inference/dev/{CLUSTER}/infra/terraform.tfstate"

MOTO_MISSING_APIS = {
    "addons": "moto has no EKS add-on API (CreateAddon, DescribeAddon): the VPC CNI, "
    "kube-proxy, CoreDNS and Pod Identity Agent add-ons cannot be created",
    "cluster_autoscaler": "moto has no EKS Pod Identity API (CreatePodIdentityAssociation): "
    "the autoscaler's role is not bound to its service account",
    "workload_identities": "the same Pod Identity API: the workload's weights-reading role and "
    "its association are not created (their policy is checked by terraform validate and "
    "test_eks_right.py only)",
}
"""Module arguments the test overrides, and why. The example has no admins; moto has no
access-entry API either."""

MOTO_ARTIFACTS = {
    (
        "aws_eks_cluster",
        "replace",
        "access_config.0.bootstrap_cluster_creator_admin_permissions",
    ): "moto's DescribeCluster returns no accessConfig, so the provider reads the cluster as "
    "having none and wants to set it again, which forces a new cluster; EKS returns "
    "authenticationMode and bootstrapClusterCreatorAdminPermissions",
    (
        "aws_eks_node_group",
        "replace",
        "remote_access",
    ): "moto gives every node group remoteAccess {ec2SshKey: eksKeypair} when none is asked "
    "for, even with a launch template (which EKS refuses to combine with remote access); it "
    "also drops updateConfig, which would only be an in-place update",
    (
        "aws_launch_template",
        "update",
        "tag_specifications",
    ): "moto files the launch template's own tags (CreateLaunchTemplate TagSpecifications of "
    "type launch-template) under the template's data, so they read back as a fourth "
    "tag_specifications block",
    (
        "aws_autoscaling_group_tag",
        "replace",
        "autoscaling_group_name",
    ): "follows from the node group artifact above: a replaced node group gets a new "
    "autoscaling group, so its cluster-autoscaler tags move to it",
}


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with aws_managed_policies(), node_groups_own_autoscaling_groups(), moto_server() as server:
        # moto keeps its emulated accounts per process, not per server: an earlier test in this
        # worker may have left buckets and state behind.
        urllib.request.urlopen(
            urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
        ).close()
        yield server


def patches(endpoint: str) -> tuple[tuple[str, str], ...]:
    """The example, with every AWS API and the dev state backend at ``endpoint``."""
    version = '    kubernetes:\n      version: "1.35"\n'
    backend = f"      bucket: {BUCKET}\n      region: us-east-1\n  - name: prod\n"
    return (
        (version, f"{version}    aws:\n      endpoint: {endpoint}\n"),
        (
            backend,
            backend.replace("  - name: prod\n", f"      endpoint: {endpoint}\n  - name: prod\n"),
        ),
    )


def override(module: str) -> str:
    lines = [
        f"# The EKS APIs moto lacks (tests/eks/test_moto.py MOTO_MISSING_APIS).\nmodule {json.dumps(module)} {{"
    ]
    lines.append("  addons             = {}")
    lines.append("  cluster_autoscaler = { enabled = false }")
    lines.append("  workload_identities = {}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def causes(tf: Terraform, plan_file: Path) -> dict[tuple[str, str, str], list[str]]:
    """(resource type, action, what forces it) -> addresses, for every change in a plan."""
    shown = terraform(["show", "-json", "-no-color", str(plan_file)], tf.cwd, tf.environment())
    assert shown.returncode == 0, shown.stderr
    unknown = {
        r["address"]: r["change"].get("after_unknown") or {}
        for r in json.loads(shown.stdout)["resource_changes"]
    }
    out: dict[tuple[str, str, str], list[str]] = {}
    for change in parse_plan(shown.stdout).changes:  # the plan read once, not shown again
        if change.action is Action.REPLACE:
            path = min(change.replace_paths, key=len)
            why = {".".join(str(step) for step in path)}
        else:
            before = change.before if isinstance(change.before, dict) else {}
            after = change.after if isinstance(change.after, dict) else {}
            skip = unknown[change.address]
            why = {
                key
                for key in set(before) | set(after)
                if skip.get(key) is not True and before.get(key) != after.get(key)
            }
        for reason in why or {"?"}:
            out.setdefault((change.type, change.action.value, reason), []).append(change.address)
    return out


def test_example_infra_applies_replans_and_destroys_on_moto(
    moto: MotoServer, tmp_path: Path
) -> None:
    timings: dict[str, float] = {}
    clock = time.monotonic()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        timings[name] = round(now - clock, 1)
        clock = now

    folder = render_example(tmp_path / "project", patches(moto.endpoint))
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
    lap("render")
    tf.init()
    lap("init")

    first = tmp_path / "first.tfplan"
    assert tf.plan(first).has_changes
    planned = tf.show_plan(first)
    assert set(planned.counts()) == {Action.CREATE}
    lap("plan")
    tf.apply(first)
    lap("apply")

    # The state is remote, in moto's S3, with its lock released.
    keys = {o["Key"] for o in moto.client("s3").list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert keys == {STATE_KEY}

    # What later stages read, in the GKE shape.
    clusters = tf.outputs()["clusters"].value
    assert isinstance(clusters, dict)
    out = clusters[CLUSTER]
    assert out["cloud"] == "eks" and out["name"] == CLUSTER and out["location"] == "us-east-1"
    assert out["host"].startswith("https://") and out["host"] == f"https://{out['endpoint']}"
    assert out["ca_certificate"]
    # The Auto Scaling groups the priority expander's patterns name are the ones EKS made for
    # the node groups (AWS names them; the infra stage's outputs carry the names).
    eks_api = moto.client("eks")

    def asg_of(group: str) -> str:
        found = eks_api.describe_nodegroup(clusterName=CLUSTER, nodegroupName=group)
        return str(found["nodegroup"]["resources"]["autoScalingGroups"][0]["name"])

    assert out["system_group"] == asg_of("system")
    assert out["pools"]["l4-shared"] == {
        "name": "l4-shared",
        "autoscaling_group": asg_of("l4-shared"),
        "accelerator": "L4",
        "gpus_per_node": 1,
        "labels": {
            "gpuplat.dev/pool": "l4-shared",
            "k8s.amazonaws.com/accelerator": "nvidia-l4",
            "nvidia.com/device-plugin.config": "l4-shared",
            "team": "ml-platform",
        },
        "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}],
    }

    # What the APIs were asked for.
    eks = moto.client("eks")
    cluster = eks.describe_cluster(name=CLUSTER)["cluster"]
    assert cluster["version"] == "1.35"
    assert cluster["resourcesVpcConfig"]["endpointPrivateAccess"] is True
    assert sorted(eks.list_nodegroups(clusterName=CLUSTER)["nodegroups"]) == ["l4-shared", "system"]
    group = eks.describe_nodegroup(clusterName=CLUSTER, nodegroupName="l4-shared")["nodegroup"]
    assert group["capacityType"] == "SPOT"
    assert group["amiType"] == "AL2023_x86_64_NVIDIA"
    assert group["instanceTypes"] == ["g6.xlarge"]
    assert group["version"] == "1.35"
    assert group["scalingConfig"] == {"minSize": 0, "maxSize": 2, "desiredSize": 0}
    assert group["taints"] == [
        {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
    ]
    template = moto.client("ec2").describe_launch_template_versions(
        LaunchTemplateId=group["launchTemplate"]["id"]
    )["LaunchTemplateVersions"][0]["LaunchTemplateData"]
    assert template["MetadataOptions"]["HttpTokens"] == "required"
    assert template["MetadataOptions"]["HttpPutResponseHopLimit"] == 1
    disk = template["BlockDeviceMappings"][0]
    assert disk["DeviceName"] == "/dev/xvda"
    assert disk["Ebs"]["VolumeType"] == "gp3" and disk["Ebs"]["VolumeSize"] == 200
    assert disk["Ebs"]["Encrypted"] is True
    asg = group["resources"]["autoScalingGroups"][0]["name"]
    tags = {
        t["Key"]: t["Value"]
        for t in moto.client("autoscaling").describe_tags(
            Filters=[{"Name": "auto-scaling-group", "Values": [asg]}]
        )["Tags"]
    }
    template_prefix = "k8s.io/cluster-autoscaler/node-template"
    assert tags == {
        "k8s.io/cluster-autoscaler/enabled": "true",
        f"k8s.io/cluster-autoscaler/{CLUSTER}": "owned",
        f"{template_prefix}/resources/nvidia.com/gpu": "2",
        # 200 GB disk less nodeadm's 1 GiB + 10% reserve: what a pod's ephemeral-storage
        # request is scheduled against on a node of this group.
        f"{template_prefix}/resources/ephemeral-storage": "178Gi",
        f"{template_prefix}/label/k8s.amazonaws.com/accelerator": "nvidia-l4",
        f"{template_prefix}/label/gpuplat.dev/pool": "l4-shared",
        f"{template_prefix}/label/nvidia.com/device-plugin.config": "l4-shared",
        f"{template_prefix}/label/team": "ml-platform",
        f"{template_prefix}/taint/nvidia.com/gpu": "present:NoSchedule",
    }
    # Least privilege: the nodes pull images and join, nothing more; the VPC CNI's permissions
    # are on a role only pods of aws-node can assume (Pod Identity).
    iam = moto.client("iam")
    node_role = group["nodeRole"].rsplit("/", 1)[-1]
    attached = {
        p["PolicyName"]
        for p in iam.list_attached_role_policies(RoleName=node_role)["AttachedPolicies"]
    }
    assert attached == {"AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly"}
    cni = [r for r in iam.list_roles()["Roles"] if "-vpc-cni-" in r["RoleName"]]
    assert len(cni) == 1
    trust = cni[0]["AssumeRolePolicyDocument"]["Statement"][0]
    assert trust["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    assert [
        p["PolicyName"]
        for p in iam.list_attached_role_policies(RoleName=cni[0]["RoleName"])["AttachedPolicies"]
    ] == ["AmazonEKS_CNI_Policy"]
    ec2 = moto.client("ec2")
    vpc = [v for v in ec2.describe_vpcs()["Vpcs"] if v["CidrBlock"] == "10.40.0.0/16"]
    assert len(vpc) == 1
    vpc_filter = [{"Name": "vpc-id", "Values": [vpc[0]["VpcId"]]}]
    assert len(ec2.describe_subnets(Filters=vpc_filter)["Subnets"]) == 6
    assert len(ec2.describe_nat_gateways(Filters=vpc_filter)["NatGateways"]) == 1
    endpoints = ec2.describe_vpc_endpoints(Filters=vpc_filter)["VpcEndpoints"]
    assert [e["ServiceName"] for e in endpoints] == ["com.amazonaws.us-east-1.s3"]
    lap("checks")

    second = tmp_path / "second.tfplan"
    tf.plan(second)
    found = causes(tf, second)
    lap("second plan")
    assert set(found) == set(MOTO_ARTIFACTS), (
        "the second plan differs from the known moto artifacts:\n"
        + "\n".join(f"{key}: {addresses}" for key, addresses in sorted(found.items()))
    )
    assert len(found["aws_eks_node_group", "replace", "remote_access"]) == 2  # system + GPU
    assert len(found["aws_launch_template", "update", "tag_specifications"]) == 2

    # The second plan has just refreshed every resource: the destroy plan need not again.
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
    lap("destroy plan")
    tf.apply(gone)
    lap("destroy")
    assert tf.state_list() == []
    assert eks.list_clusters()["clusters"] == []
    assert not [v for v in ec2.describe_vpcs()["Vpcs"] if v["CidrBlock"] == "10.40.0.0/16"]
    print(f"\neks-l4-vllm dev infra on moto, seconds: {timings}")
