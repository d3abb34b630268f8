"""What the EKS roots say so the platform works on a real AWS account, not only validates.

Each test is one rendered value that the README's "verified by reading docs vs ran here" list
names, with the source it was read from. Refusals are in tests/eks/cases/eks-right-on-aws.case,
the module's own planned values in tests/eks/test_node_group_plan.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from gpuplat.addons import plan_addons
from gpuplat.releases.versions import latest, release_files
from gpuplat.render.platform import platform_view
from gpuplat.spec.load import load_project
from gpuplat.summary import pool_warnings
from gpuplat.targets import target
from gpuplat.targets.eks import node
from gpuplat.terraform import parse_plan
from gpuplat.workload.serving import plan_workload
from tests.support.specs import project
from tests.targets.test_eks_view import POOL_BLOCK, args, cluster, load, pools

EXTRA_POOLS = """        disk:
          size_gb: 200
          type: gp3
        labels:
          team: ml-platform
        taints:
          - key: team
            value: ml
            effect: NoSchedule
      - name: h100
        machine_type: p5.48xlarge
        zones: [us-east-1a]
        efa: true
        placement:
          compact: true
        autoscaling:
          min_nodes: 0
          max_nodes: 2
        taints:
          - key: dedicated
            value: training
            effect: NoExecute
      - name: br
        machine_type: g6.xlarge
        image: BOTTLEROCKET_x86_64_NVIDIA
        sharing:
          mode: time-slicing
          max_clients: 4
"""
TRAINER = """
  - name: trainer
    image: vllm/vllm-openai:v0.11.0
    model:
      source: s3://acme-models/big
      size_gb: 100
    gpus: 4
    pool: h100
    clusters: [inference-use1]
"""
PATCHES = (
    (POOL_BLOCK, EXTRA_POOLS),
    ("\nenvironments:\n", f"{TRAINER}\nenvironments:\n"),
    (
        "      private_nodes: true\n",
        "      private_nodes: true\n      private_endpoint_networks:\n"
        "        - cidr: 10.8.0.0/16\n          name: ci-runners\n",
    ),
)


def test_ephemeral_storage_tag_is_the_disk_less_the_kubelet_reserve(tmp_path: Path) -> None:
    # awslabs/amazon-eks-ami nodeadm: kubeReserved ephemeral 1 GiB, evictionHard nodefs 10%.
    envs = load(tmp_path)
    pool = pools(cluster(envs["dev"]))["l4-shared"]
    assert args(pool)["template_resources"] == {"ephemeral-storage": "178Gi"}
    assert node.ephemeral_allocatable_gib(200) == int(200 - (1.074 + 20.0))
    assert node.ephemeral_allocatable_gib(1000) == 898


def test_efa_pool_requests_install_and_tags(tmp_path: Path) -> None:
    envs = load(tmp_path, PATCHES)
    env = envs["dev"]
    spec, eks = env.spec, env.spec.clusters[0]
    # A replica of 4 of the p5's 8 GPUs takes half its 32 EFA devices; limits equal requests.
    plan = plan_workload(spec, spec.workloads[1], eks)
    assert plan.requests["vpc.amazonaws.com/efa"] == "16"
    assert plan.limits["vpc.amazonaws.com/efa"] == "16"
    assert "vpc.amazonaws.com/efa" not in plan_workload(spec, spec.workloads[0], eks).requests
    addons = plan_addons(spec, eks)
    assert addons.efa_device_plugin and "aws-efa-k8s-device-plugin" in addons.charts()
    h100 = args(pools(cluster(env))["h100"])
    assert h100["compact_placement"] is True  # on-demand: a new placement group is fine
    assert h100["efa"]["interfaces"] == 32  # type: ignore[index]


def test_gpu_daemonsets_tolerate_every_pool_taint_and_skip_bottlerocket(tmp_path: Path) -> None:
    envs = load(tmp_path, PATCHES)
    env = envs["dev"]
    view = platform_view(env, env.spec.clusters[0])
    platform = args(view)
    assert platform["pool_tolerations"] == [
        {"key": "team", "effect": "NoSchedule"},
        {"key": "dedicated", "effect": "NoExecute"},
    ]
    assert platform["gpu_pools"] == ["l4-shared", "h100", "br"]
    # Bottlerocket's NVIDIA AMI runs its own device plugin: the chart stays off its nodes, and
    # its time-slicing is in the node group's user data, not in the chart's configs.
    assert platform["plugin_pools"] == ["l4-shared", "h100"]
    assert [s["name"] for s in platform["sharing"]] == ["l4-shared"]  # type: ignore[union-attr]
    br = args(pools(cluster(env))["br"])
    assert br["bottlerocket_time_slicing"] == 4 and br["advertised_gpus"] == 4
    assert "nvidia.com/device-plugin.config" not in br["labels"]  # type: ignore[operator]


def test_private_endpoint_networks_reach_the_api(tmp_path: Path) -> None:
    envs = load(tmp_path, PATCHES)
    endpoint = args(cluster(envs["dev"]))["endpoint"]
    assert endpoint == {
        "public": True,
        "public_cidrs": ["0.0.0.0/0"],
        "private_networks": [{"cidr": "10.8.0.0/16", "description": "ci-runners"}],
    }


def test_weights_identity_is_the_serving_plans_service_account(tmp_path: Path) -> None:
    envs = load(tmp_path, PATCHES)
    env = envs["dev"]
    spec, eks = env.spec, env.spec.clusters[0]
    identities = args(cluster(env))["workload_identities"]
    assert isinstance(identities, dict)
    for workload in spec.workloads:
        plan = plan_workload(spec, workload, eks)
        identity = identities[workload.name]
        # The association names the service account the model-server module creates.
        assert (identity["namespace"], identity["service_account"]) == (plan.namespace, plan.name)
        # The copier reads with the AWS CLI, whose SDK reads Pod Identity's token file.
        assert plan.weights.init_command[:3] == ("aws", "s3", "sync")
    assert identities["chat"]["s3_read"] == [
        {"bucket": "acme-models", "prefix": "meta-llama/Llama-3.2-3B-Instruct"}
    ]
    assert identities["trainer"]["s3_read"] == [{"bucket": "acme-models", "prefix": "big"}]
    assert "ssm_access" not in args(cluster(env))


def _plan(before: dict[str, object], after: dict[str, object]) -> str:
    change = {
        "address": "module.pool_c_h100.aws_eks_node_group.this",
        "module_address": "module.pool_c_h100",
        "mode": "managed",
        "type": "aws_eks_node_group",
        "name": "this",
        "provider_name": "registry.terraform.io/hashicorp/aws",
        "change": {"actions": ["update"], "before": before, "after": after},
    }
    return json.dumps(
        {"format_version": "1.2", "terraform_version": "1.11.0", "resource_changes": [change]}
    )


BLOCK = {
    "node_group_name": "h100",
    "capacity_type": "CAPACITY_BLOCK",
    "instance_types": None,
    "scaling_config": [{"min_size": 0, "max_size": 2, "desired_size": 0}],
    "tags": {"gpuplat.dev/instance-type": "p5.48xlarge"},
    "version": "1.33",
    "launch_template": [{"id": "lt-1", "version": "3"}],
}


def test_plan_warns_when_a_reserved_group_would_roll_and_counts_its_gpus() -> None:
    upgraded = {**BLOCK, "version": "1.34"}
    warnings = pool_warnings(parse_plan(_plan(BLOCK, upgraded)))
    assert len(warnings) == 1
    assert "node group h100 runs on a Capacity Block" in warnings[0]
    assert "Scale it to 0 first" in warnings[0]
    # A change of bounds alone does not replace nodes: nothing to warn about.
    rescaled = {**BLOCK, "scaling_config": [{"min_size": 0, "max_size": 4, "desired_size": 0}]}
    assert pool_warnings(parse_plan(_plan(BLOCK, rescaled))) == []
    # An on-demand group with a targeted reservation (named by the module's tag) too.
    reserved = {
        **BLOCK,
        "capacity_type": "ON_DEMAND",
        "tags": {"gpuplat.dev/capacity-reservation": "cr-0123456789abcdef0"},
    }
    warned = pool_warnings(parse_plan(_plan(reserved, {**reserved, "launch_template": []})))
    assert warned and "capacity reservation cr-0123456789abcdef0" in warned[0]
    # The plan summary counts a Capacity Block group's GPUs from the instance type tag.
    planned = target("eks").planned_pool(BLOCK)
    assert planned is not None
    assert (planned.machine_type, planned.capacity, planned.gpu_bounds()) == (
        "p5.48xlarge",
        "capacity-block",
        (0, 16),
    )


def test_spot_pool_passes_its_equivalent_types_and_ssm_is_a_choice(tmp_path: Path) -> None:
    # EKS's spot guidance: several instance types of the same GPU and count in one group.
    folder = project(
        tmp_path,
        (
            (POOL_BLOCK, POOL_BLOCK + "        extra_machine_types: [g6.2xlarge, g6.4xlarge]\n"),
            (
                '    kubernetes:\n      version: "1.35"\n',
                '    kubernetes:\n      version: "1.35"\n    aws:\n      ssm_access: true\n',
            ),
        ),
        example="eks-l4-vllm",
    )
    # prod's overlay makes the pool on-demand, where the list is refused (the .case file):
    # keep it spot there too.
    overlay = folder / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    overlay.write_text(text.replace("          type: on-demand\n", "          type: spot\n"))
    view = cluster(load_project(folder).envs["prod"])
    pool = args(pools(view)["l4-shared"])
    assert pool["instance_type"] == "g6.xlarge"
    assert pool["extra_instance_types"] == ["g6.2xlarge", "g6.4xlarge"]
    assert args(view)["ssm_access"] is True


SPOT = {
    "node_group_name": "l4-shared",
    "capacity_type": "SPOT",
    "instance_types": ["g6.xlarge"],
    "subnet_ids": ["subnet-a", "subnet-b", "subnet-c"],
    "scaling_config": [{"min_size": 0, "max_size": 4, "desired_size": 1}],
    "update_config": [{"max_unavailable": 1, "max_unavailable_percentage": None}],
    "tags": {},
    "version": "1.34",
    "launch_template": [{"id": "lt-1", "version": "3"}],
}


def test_plan_warns_that_a_node_group_update_surges_gpu_nodes() -> None:
    """EKS updates always surge (managed-node-update-behavior): up to twice the group's zones
    in new nodes first, then a drain per node that fails after 15 minutes. The module's old
    comment said nodes were replaced in place; the plan summary now says what happens."""
    upgraded = {**SPOT, "version": "1.35"}
    warnings = pool_warnings(parse_plan(_plan(SPOT, upgraded)))
    assert len(warnings) == 1
    # 3 subnets (one per zone) -> up to 6 new g6.xlarge nodes before any old one goes.
    assert "node group l4-shared: this update replaces its nodes, and EKS surges" in warnings[0]
    assert "up to 6 extra g6.xlarge node(s)" in warnings[0]
    assert "within 15 minutes" in warnings[0] and "PodEvictionFailure" in warnings[0]
    # A change of bounds alone replaces no node: nothing to warn about.
    rescaled = {**SPOT, "scaling_config": [{"min_size": 0, "max_size": 8, "desired_size": 1}]}
    assert pool_warnings(parse_plan(_plan(SPOT, rescaled))) == []


def test_node_group_module_no_longer_says_nodes_are_replaced_in_place() -> None:
    text = release_files(latest("eks-gpu-node-group"))["main.tf"]
    assert "Replace nodes in place" not in text
    assert "PodEvictionFailure" in text
