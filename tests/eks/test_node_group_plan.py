"""The eks-gpu-node-group module, planned by the real terraform with the real aws provider.

A plan of new resources needs no AWS API (the provider skips its credential and account
checks here), so it shows what the module would ask EC2, EKS and Auto Scaling for: the
cluster-autoscaler node-template tags, the EFA interfaces of the launch template, the
Bottlerocket user data and the instance types. What EC2 does with them is not run here (see the
README's "verified by reading docs vs ran here" list).

The same plan holds the eks-cluster module's weights-reading role and policy (targeted: the rest
of that module reads subnets from the EC2 API). moto has no Pod Identity API, so this plan is
where the policy's value is proven; its association is planned nowhere here.
"""

from __future__ import annotations

import base64
import json

import pytest

from gpuplat.releases.versions import latest, release_files
from gpuplat.targets import target
from tests.eks.terraform import mirror_env, terraform

pytestmark = pytest.mark.terraform

PROVIDER = """\
provider "aws" {
  region                      = "us-east-1"
  access_key                  = "x"
  secret_key                  = "x"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
}
"""
COMMON = """
  cluster_name  = "c"
  node_role_arn = "arn:aws:iam::123456789012:role/nodes"
  subnet_ids    = ["subnet-0123456789abcdef0"]
  scaling       = { min_nodes = 0, max_nodes = 2 }
"""
CALLS = {
    # 32 EFA interfaces on a p5, a Capacity Block (instance type in the launch template).
    "p5": """
  name               = "p5"
  instance_type      = "p5.48xlarge"
  gpus_per_node      = 8
  capacity           = { type = "CAPACITY_BLOCK", reservation_id = "cr-0123456789abcdef0" }
  template_resources = { ephemeral-storage = "178Gi" }
  labels             = { "k8s.amazonaws.com/accelerator" = "nvidia-h100" }
  taints             = [{ key = "dedicated", value = "training", effect = "NO_EXECUTE" }]
  efa = {
    interfaces         = 32
    vpc_id             = "vpc-0123456789abcdef0"
    security_group_ids = ["sg-0123456789abcdef0"]
  }
""",
    "br": """
  name                      = "br"
  instance_type             = "g6.xlarge"
  ami_type                  = "BOTTLEROCKET_x86_64_NVIDIA"
  gpus_per_node             = 1
  advertised_gpus           = 4
  bottlerocket_time_slicing = 4
""",
    "spot": """
  name                 = "spot"
  instance_type        = "g6.2xlarge"
  extra_instance_types = ["g6.4xlarge"]
  gpus_per_node        = 1
  capacity             = { type = "SPOT" }
""",
}


CLUSTER = """
module "cluster" {
  source  = "../eks-cluster"
  name    = "c"
  network = { subnet_ids = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"] }
  workload_identities = {
    chat = {
      namespace       = "serving"
      service_account = "chat"
      s3_read         = [{ bucket = "acme-models", prefix = "meta-llama/Llama-3.2-3B-Instruct" }]
    }
  }
}
"""
TARGETS = (
    *(f"module.{name}" for name in ("p5", "br", "spot")),
    'module.cluster.aws_iam_role_policy.workload["chat"]',
)


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """address -> planned values, for every resource of the three calls (one init, one plan)."""
    tmp = tmp_path_factory.mktemp("node-group-plan")
    for folder, release in (("module", "eks-gpu-node-group"), ("eks-cluster", "eks-cluster")):
        module = tmp / folder
        module.mkdir()
        for name, text in release_files(latest(release)).items():
            if name.endswith(".tf"):
                (module / name).write_text(text, encoding="utf-8")
    root = tmp / "root"
    root.mkdir()
    calls = "".join(
        f'\nmodule "{name}" {{\n  source = "../module"\n{COMMON}{body}}}\n'
        for name, body in CALLS.items()
    )
    (root / "main.tf").write_text(PROVIDER + calls + CLUSTER, encoding="utf-8")
    env = mirror_env(tmp / "tf")
    init = terraform(["init", "-backend=false", "-input=false", "-no-color"], root, env)
    assert init.returncode == 0, init.stderr
    plan = terraform(
        [
            "plan",
            "-input=false",
            "-no-color",
            "-refresh=false",
            *(f"-target={t}" for t in TARGETS),
            "-out=plan.tfplan",
        ],
        root,
        env,
    )
    assert plan.returncode == 0, plan.stderr
    shown = terraform(["show", "-json", "plan.tfplan"], root, env)
    assert shown.returncode == 0, shown.stderr
    changes = json.loads(shown.stdout)["resource_changes"]
    return {c["address"]: c["change"]["after"] for c in changes}


def _tags(planned: dict[str, dict[str, object]], module: str) -> dict[str, str]:
    prefix = f'module.{module}.aws_autoscaling_group_tag.autoscaler["'
    out = {}
    for address, after in planned.items():
        if address.startswith(prefix):
            tag = after["tag"]
            assert isinstance(tag, list)
            out[tag[0]["key"]] = tag[0]["value"]
    return out


def test_scale_from_zero_tags_name_every_resource_a_pod_requests(
    planned: dict[str, dict[str, object]],
) -> None:
    template = "k8s.io/cluster-autoscaler/node-template"
    tags = _tags(planned, "p5")
    assert tags[f"{template}/resources/nvidia.com/gpu"] == "8"
    assert tags[f"{template}/resources/vpc.amazonaws.com/efa"] == "32"
    assert tags[f"{template}/resources/ephemeral-storage"] == "178Gi"
    assert tags[f"{template}/label/k8s.amazonaws.com/accelerator"] == "nvidia-h100"
    assert tags[f"{template}/taint/dedicated"] == "training:NoExecute"
    assert _tags(planned, "br")[f"{template}/resources/nvidia.com/gpu"] == "4"


def test_efa_only_interfaces_after_the_first_card(planned: dict[str, dict[str, object]]) -> None:
    template = planned["module.p5.aws_launch_template.this"]
    cards = template["network_interfaces"]
    assert isinstance(cards, list) and len(cards) == 32
    by_card = {c["network_card_index"]: c for c in cards}
    assert (by_card[0]["interface_type"], by_card[0]["device_index"]) == ("efa", 0)
    assert {(c["interface_type"], c["device_index"]) for i, c in by_card.items() if i} == {
        ("efa-only", 0)
    }
    assert template["instance_type"] == "p5.48xlarge"  # a Capacity Block's, in the template


def test_capacity_block_group_names_its_instance_type(
    planned: dict[str, dict[str, object]],
) -> None:
    group = planned["module.p5.aws_eks_node_group.this"]
    assert group.get("instance_types") is None  # unknown until EKS reads the template
    assert group["tags"]["gpuplat.dev/instance-type"] == "p5.48xlarge"
    assert group["tags"]["gpuplat.dev/capacity-reservation"] == "cr-0123456789abcdef0"


def test_bottlerocket_time_slicing_is_user_data(planned: dict[str, dict[str, object]]) -> None:
    data = planned["module.br.aws_launch_template.this"]["user_data"]
    assert isinstance(data, str)
    toml = base64.b64decode(data).decode()
    assert "[settings.kubelet-device-plugins.nvidia]" in toml
    assert 'device-sharing-strategy = "time-slicing"' in toml
    assert "replicas = 4" in toml and "rename-by-default = false" in toml
    assert planned["module.spot.aws_launch_template.this"].get("user_data") is None


def test_spot_group_lists_its_equivalent_types(planned: dict[str, dict[str, object]]) -> None:
    group = planned["module.spot.aws_eks_node_group.this"]
    assert group["instance_types"] == ["g6.2xlarge", "g6.4xlarge"]


def test_nodes_keep_imds_to_themselves(planned: dict[str, dict[str, object]]) -> None:
    # One hop: a pod's packets to IMDS take a second hop, so pods get no node credentials;
    # the weights copier's credentials come from Pod Identity instead (next test).
    for module in CALLS:
        options = planned[f"module.{module}.aws_launch_template.this"]["metadata_options"]
        assert isinstance(options, list)
        assert options[0]["http_tokens"] == "required"
        assert options[0]["http_put_response_hop_limit"] == 1


def test_weights_role_reads_exactly_the_model_prefix(
    planned: dict[str, dict[str, object]],
) -> None:
    role = planned['module.cluster.aws_iam_role.workload["chat"]']
    trust = json.loads(str(role["assume_role_policy"]))["Statement"]
    assert [(s["Principal"], s["Action"]) for s in trust] == [
        ({"Service": "pods.eks.amazonaws.com"}, ["sts:AssumeRole", "sts:TagSession"])
    ]
    policy = planned['module.cluster.aws_iam_role_policy.workload["chat"]']
    statements = json.loads(str(policy["policy"]))["Statement"]
    prefix = "meta-llama/Llama-3.2-3B-Instruct"
    assert statements == [
        {
            "Sid": "ReadWeights",
            "Effect": "Allow",
            "Action": ["s3:GetObject"],
            "Resource": [f"arn:aws:s3:::acme-models/{prefix}/*"],
        },
        {
            "Sid": "ListWeights0",
            "Effect": "Allow",
            "Action": ["s3:ListBucket"],
            "Resource": "arn:aws:s3:::acme-models",
            "Condition": {"StringLike": {"s3:prefix": [prefix, f"{prefix}/*"]}},
        },
    ]


def test_plan_summary_counts_a_capacity_block_groups_gpus(
    planned: dict[str, dict[str, object]],
) -> None:
    # The planned node group has no instance_types (a Capacity Block's type is in the launch
    # template); the plan summary reads the module's tag instead.
    pool = target("eks").planned_pool(planned["module.p5.aws_eks_node_group.this"])
    assert pool is not None
    assert (pool.machine_type, pool.capacity, pool.gpu_bounds()) == (
        "p5.48xlarge",
        "capacity-block",
        (0, 16),
    )
