"""The EKS view code: what the infra root passes to the EKS modules, as plain data."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.hcl.writer import Raw
from gpuplat.render.roots import render_root
from gpuplat.render.views import CallView, ClusterView, PlatformView, PoolView
from gpuplat.spec.load import EnvSpec, load_project
from gpuplat.targets import target
from gpuplat.targets.eks import infra as eks
from gpuplat.targets.tags import gpuplat_tags
from tests.support.specs import project

EXAMPLE = "eks-l4-vllm"
CLUSTER_HEADER = (
    "  - name: inference-use1\n    cloud: eks\n    region: us-east-1\n"
    "    zones: [us-east-1a, us-east-1b, us-east-1c]\n"
)
POOL_BLOCK = """        disk:
          size_gb: 200
          type: gp3
        labels:
          team: ml-platform
"""
H100_POOL = """        disk:
          size_gb: 200
          type: gp3
        labels:
          team: ml-platform
      - name: h100
        machine_type: p5.48xlarge
        zones: [us-east-1a]
        capacity:
          type: reservation
          reservation: cr-0123456789abcdef0
          block: true
        autoscaling:
          min_nodes: 0
          max_nodes: 2
        efa: true
        taints:
          - key: dedicated
            value: training
            effect: NoExecute
"""


def load(tmp_path: Path, patches: tuple[tuple[str, str], ...] = ()) -> dict[str, EnvSpec]:
    folder = project(tmp_path, patches, example=EXAMPLE)
    return load_project(folder).envs


def cluster(env: EnvSpec) -> ClusterView:
    return eks.cluster_view(target("eks"), env, env.spec.clusters[0])


def pools(view: ClusterView) -> dict[str, PoolView]:
    return {p.name: p for p in view.pools}


def args(view: CallView | ClusterView | PoolView | PlatformView) -> dict[str, object]:
    return view.args


def raw_text(value: object) -> str:
    assert isinstance(value, Raw), value
    return value.text


def test_example_cluster_new_vpc_and_defaults(tmp_path: Path) -> None:
    envs = load(tmp_path)
    dev, prod = cluster(envs["dev"]), cluster(envs["prod"])
    network = dev.network
    assert network is not None
    assert network.module == "network_inference-use1"
    assert args(network) == {
        "name": "inference-use1",
        "vpc_cidr": "10.40.0.0/16",
        "zones": ["us-east-1a", "us-east-1b", "us-east-1c"],
        "nat_gateways": "single",
        "tags": {
            "gpuplat-env": "dev",
            "gpuplat-project": "acme-inference",
            "managed-by": "gpuplat",
        },
    }
    prod_network = prod.network
    assert prod_network is not None
    # Protected environments keep egress when a zone fails: one NAT gateway per zone.
    assert args(prod_network)["nat_gateways"] == "per_zone"
    assert args(prod_network)["vpc_cidr"] == "10.50.0.0/16"
    cargs = args(dev)
    net = cargs["network"]
    assert isinstance(net, dict)
    assert raw_text(net["vpc_id"]) == "module.network_inference-use1.vpc_id"
    assert raw_text(net["subnet_ids"]) == "module.network_inference-use1.private_subnet_ids"
    assert cargs["kubernetes_version"] == "1.35"
    assert "efa_security_group" not in cargs  # no EFA pool: no EFA group
    assert cargs["endpoint"] == {"public": True, "public_cidrs": ["0.0.0.0/0"]}
    assert cargs["system_pool"] == {
        "instance_type": "m6i.large",
        "ami_type": "AL2023_x86_64_STANDARD",
        "min_nodes": 1,
        "max_nodes": 3,
    }
    assert cargs["admins"] == [] and cargs["secrets_kms_key_arn"] is None


def test_example_pool_labels_taints_and_autoscaler_inputs(tmp_path: Path) -> None:
    envs = load(tmp_path)
    pool = pools(cluster(envs["dev"]))["l4-shared"]
    pargs = args(pool)
    assert raw_text(pargs["cluster_name"]) == "module.cluster_inference-use1.name"
    assert raw_text(pargs["node_role_arn"]) == "module.cluster_inference-use1.node_role_arn"
    # Nodes follow the control plane's version, so an upgrade rolls them too.
    assert (
        raw_text(pargs["kubernetes_version"]) == "module.cluster_inference-use1.kubernetes_version"
    )
    assert raw_text(pargs["subnet_ids"]) == "module.cluster_inference-use1.subnet_ids"
    assert pargs["instance_type"] == "g6.xlarge"
    assert pargs["ami_type"] == "AL2023_x86_64_NVIDIA"
    assert pargs["gpus_per_node"] == 1
    # Time-slicing with 2 clients: a node advertises 2 nvidia.com/gpu, which is what the
    # autoscaler's scale-from-zero template must say.
    assert pargs["advertised_gpus"] == 2
    assert pargs["capacity"] == {"type": "SPOT"}
    assert pargs["scaling"] == {"min_nodes": 0, "max_nodes": 2}
    assert pargs["disk"] == {"size_gb": 200, "type": "gp3"}
    # The pool label places workloads; the device-plugin label selects the time-slicing config.
    assert pargs["labels"] == {
        "gpuplat.dev/pool": "l4-shared",
        "k8s.amazonaws.com/accelerator": "nvidia-l4",
        "nvidia.com/device-plugin.config": "l4-shared",
        "team": "ml-platform",
    }
    assert pargs["taints"] == []  # the module always adds nvidia.com/gpu=present:NO_SCHEDULE
    assert "efa" not in pargs and "compact_placement" not in pargs
    assert pool.accelerator == "L4"
    prod_pool = pools(cluster(envs["prod"]))["l4-shared"]
    assert args(prod_pool)["capacity"] == {"type": "ON_DEMAND"}
    assert args(prod_pool)["scaling"] == {"min_nodes": 1, "max_nodes": 8}


def test_capacity_block_with_efa(tmp_path: Path) -> None:
    # No placement.compact: a new cluster placement group and a Capacity Block are refused
    # together (tests/eks/cases/eks-right-on-aws.case).
    envs = load(tmp_path, ((POOL_BLOCK, H100_POOL),))
    pool = pools(cluster(envs["dev"]))["h100"]
    assert args(cluster(envs["dev"]))["efa_security_group"] is True
    pargs = args(pool)
    assert pargs["capacity"] == {
        "type": "CAPACITY_BLOCK",
        "reservation_id": "cr-0123456789abcdef0",
    }
    assert pargs["gpus_per_node"] == 8 and pargs["advertised_gpus"] == 8
    assert "compact_placement" not in pargs
    efa = pargs["efa"]
    assert isinstance(efa, dict)
    assert efa["interfaces"] == 32  # p5.48xlarge: one EFA interface per network card
    # The cluster's one EFA group, shared by every EFA pool (no group of the pool's own).
    assert efa["own_security_group"] is False and "vpc_id" not in efa
    assert raw_text(efa["security_group_id"]) == (
        "module.cluster_inference-use1.efa_security_group_id"
    )
    (group,) = efa["security_group_ids"]  # type: ignore[misc]
    assert raw_text(group) == "module.cluster_inference-use1.cluster_security_group_id"
    # Pinned to a zone: its subnets come from the new VPC's map, known when planning.
    assert raw_text(pargs["subnet_ids"]) == (
        'flatten([for zone in ["us-east-1a"] : '
        "module.network_inference-use1.subnet_ids_by_zone[zone]])"
    )
    assert pargs["taints"] == [{"key": "dedicated", "value": "training", "effect": "NO_EXECUTE"}]
    assert pargs["labels"] == {
        "gpuplat.dev/pool": "h100",
        "k8s.amazonaws.com/accelerator": "nvidia-h100-80gb",
    }


def test_on_demand_capacity_reservation_is_not_a_block() -> None:
    from gpuplat.spec.model import NodePool

    pool = NodePool.model_validate(
        {
            "name": "a",
            "machine_type": "p5.48xlarge",
            "capacity": {"type": "reservation", "reservation": "cr-0123456789abcdef0"},
        }
    )
    assert eks.capacity_view(pool) == {
        "type": "ON_DEMAND",
        "reservation_id": "cr-0123456789abcdef0",
    }


@pytest.mark.parametrize(
    ("arch", "image", "driver", "expected"),
    [
        ("x86_64", None, "managed", "AL2023_x86_64_NVIDIA"),
        ("arm64", None, "managed", "AL2023_ARM_64_NVIDIA"),
        ("x86_64", None, "none", "AL2023_x86_64_STANDARD"),
        ("arm64", None, "none", "AL2023_ARM_64_STANDARD"),
        ("x86_64", "BOTTLEROCKET_x86_64_NVIDIA", "managed", "BOTTLEROCKET_x86_64_NVIDIA"),
    ],
)
def test_ami_type(arch: str, image: str | None, driver: str, expected: str) -> None:
    assert eks.ami_type(arch, image, driver) == expected


def test_system_ami_follows_the_instance_architecture() -> None:
    assert eks.system_ami("m6i.large") == "AL2023_x86_64_STANDARD"
    assert eks.system_ami("m7g.large") == "AL2023_ARM_64_STANDARD"


def test_existing_vpc_passes_ids_and_zones_come_from_the_cluster(tmp_path: Path) -> None:
    patches = (
        (
            "    network:\n      vpc_cidr: 10.40.0.0/16 # private subnets per zone; nodes reach "
            "the internet through NAT\n      private_nodes: true\n",
            "    network:\n      network: vpc-0123456789abcdef0\n      subnet_ids:\n"
            "        - subnet-0123456789abcdef0\n        - subnet-0123456789abcdef1\n"
            "      authorized_networks:\n        - cidr: 203.0.113.0/24\n          name: office\n",
        ),
        (POOL_BLOCK, POOL_BLOCK + "        zones: [us-east-1b]\n"),
    )
    folder = project(tmp_path, patches, example=EXAMPLE)
    (tmp_path / "envs" / "prod.yaml").write_text("", encoding="utf-8")
    view = cluster(load_project(folder).envs["dev"])
    assert view.network is None
    cargs = args(view)
    assert cargs["network"] == {
        "vpc_id": "vpc-0123456789abcdef0",
        "subnet_ids": ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"],
    }
    assert cargs["endpoint"] == {"public": True, "public_cidrs": ["203.0.113.0/24"]}
    pool = pools(view)["l4-shared"]
    assert raw_text(args(pool)["subnet_ids"]) == (
        'flatten([for zone in ["us-east-1b"] : '
        "module.cluster_inference-use1.subnet_ids_by_zone[zone]])"
    )


def test_aws_block_reaches_the_cluster_module(tmp_path: Path) -> None:
    aws = (
        "    aws:\n      admins: [arn:aws:iam::123456789012:role/platform-admins]\n"
        "      kms_key_arn: arn:aws:kms:us-east-1:123456789012:key/abcd-1234\n"
    )
    envs = load(tmp_path, (('      version: "1.35"\n', '      version: "1.36"\n' + aws),))
    cargs = args(cluster(envs["dev"]))
    assert cargs["admins"] == ["arn:aws:iam::123456789012:role/platform-admins"]
    assert cargs["secrets_kms_key_arn"] == "arn:aws:kms:us-east-1:123456789012:key/abcd-1234"
    assert cargs["kubernetes_version"] == "1.36"


def test_default_kubernetes_version_is_explicit_in_the_root(tmp_path: Path) -> None:
    envs = load(tmp_path, (('    kubernetes:\n      version: "1.35"\n', ""),))
    assert args(cluster(envs["dev"]))["kubernetes_version"] == eks.DEFAULT_KUBERNETES_VERSION


def test_one_provider_without_endpoint(tmp_path: Path) -> None:
    envs = load(tmp_path)
    provider = eks.AwsProvider.of(envs["dev"].spec.clusters[0])
    assert provider.view(gpuplat_tags(envs["dev"])) == {
        "region": "us-east-1",
        "allowed_account_ids": None,
        "endpoint": None,
        "endpoints": None,
        "default_tags": {
            "managed-by": "gpuplat",
            "gpuplat-project": "acme-inference",
            "gpuplat-env": "dev",
        },
    }


def test_emulator_endpoint_serves_every_service_and_drops_the_account_pin(
    tmp_path: Path,
) -> None:
    aws = '    aws:\n      account_id: "123456789012"\n      endpoint: http://localhost:4566\n'
    envs = load(tmp_path, (('      version: "1.35"\n', '      version: "1.35"\n' + aws),))
    view = eks.AwsProvider.of(envs["dev"].spec.clusters[0]).view({})
    assert view["allowed_account_ids"] is None
    assert view["endpoints"] == dict.fromkeys(eks.AWS_SERVICES, "http://localhost:4566")
    text = render_root(envs["dev"], envs["dev"].spec.clusters[0], "infra")[1]["providers.tf"]
    assert "skip_credentials_validation = true" in text
    assert "skip_requesting_account_id  = true" in text
    assert "skip_metadata_api_check     = true" in text
    assert 'autoscaling = "http://localhost:4566"' in text
    assert "allowed_account_ids" not in text


def test_account_pin_without_endpoint(tmp_path: Path) -> None:
    aws = '    aws:\n      account_id: "012345678901"\n'
    envs = load(tmp_path, (('      version: "1.35"\n', '      version: "1.35"\n' + aws),))
    text = render_root(envs["dev"], envs["dev"].spec.clusters[0], "infra")[1]["providers.tf"]
    assert 'allowed_account_ids = ["012345678901"]' in text


def test_clusters_in_two_regions_get_roots_of_their_own(tmp_path: Path) -> None:
    second = (
        "  - name: inference-usw2\n    cloud: eks\n    region: us-west-2\n"
        "    zones: [us-west-2a, us-west-2b]\n    network:\n      vpc_cidr: 10.60.0.0/16\n"
        "    node_pools:\n      - name: l4\n        machine_type: g6.xlarge\n\n"
    )
    envs = load(tmp_path, (("addons:\n", second.replace("\n\n", "\n") + "\naddons:\n"),))
    dev = envs["dev"]
    for one, region in zip(dev.spec.clusters, ("us-east-1", "us-west-2"), strict=True):
        folder, files, _ = render_root(dev, one, "infra")
        assert folder == f"envs/dev/{one.name}/infra"
        # One cluster, one region, one provider: no aliases to wire through the modules.
        assert files["providers.tf"].count('provider "aws" {') == 1
        assert f'region = "{region}"' in files["providers.tf"]
        assert "alias" not in files["providers.tf"] and "providers = {" not in files["main.tf"]
        other = next(c.name for c in dev.spec.clusters if c.name != one.name)
        assert other not in files["main.tf"]


def test_dra_pools_advertise_no_gpu_resource(tmp_path: Path) -> None:
    envs = load(
        tmp_path,
        (
            (
                "  device_plugin: auto # the NVIDIA device plugin on EKS (the NVIDIA AMI ships the "
                "driver)\n",
                "  device_plugin: dra\n",
            ),
            (
                "          mode: time-slicing # two servers take turns on each L4\n"
                "          max_clients: 2\n",
                "          mode: none\n",
            ),
        ),
    )
    assert args(pools(cluster(envs["dev"]))["l4-shared"])["advertised_gpus"] == 0


def test_infra_outputs_have_the_shape_later_stages_read(tmp_path: Path) -> None:
    envs = load(tmp_path)
    text = render_root(envs["dev"], envs["dev"].spec.clusters[0], "infra")[1]["outputs.tf"]
    for line in (
        'cloud          = "eks"',
        "location       = module.cluster_inference-use1.region",
        'endpoint       = trimprefix(module.cluster_inference-use1.endpoint, "https://")',
        "host           = module.cluster_inference-use1.endpoint",
        "ca_certificate = module.cluster_inference-use1.ca_certificate",
        "system_group   = module.cluster_inference-use1.system_autoscaling_group_name",
        'accelerator       = "L4"',
        "autoscaling_group = module.pool_inference-use1_l4-shared.autoscaling_group_name",
        "taints            = module.pool_inference-use1_l4-shared.taints",
    ):
        assert line in text, line
