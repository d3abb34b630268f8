"""AKS InfiniBand for multi-host groups: Llama 3.1 405B on 2 x Standard_ND96isr_H100_v5.

The pool's ``infiniband: true`` installs the NVIDIA Network Operator (platform stage), applies a
NicClusterPolicy that loads the DOCA driver and runs the RDMA shared device plugin on that pool
only (serving stage, nic-cluster-policy module), tags the pool so the autoscaler knows a new
node offers ``rdma/ib``, and gives each pod of a group one ``rdma/ib`` and IPC_LOCK. What runs
here: the group's LeaderWorkerSet and the NicClusterPolicy are planned by real terraform through
the schema stand-in (each kubernetes_manifest held to its vendored CRD: lws, Kueue, and
network-operator v26.4.0's NicClusterPolicy) and equal the plain manifests; the infra root plans
through the azurerm stand-in. No Azure subscription: nothing is applied.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuplat import catalog, crds
from gpuplat.hcl.writer import attributes
from gpuplat.releases.versions import latest, release_files
from gpuplat.spec.load import load_project
from gpuplat.workload.daemonsets import node_pods
from gpuplat.workload.serving import ServingPlan, serving_plans
from tests.multihost.test_group import DATA, TODAY, leader_worker
from tests.parity.test_serving import compare, label, planned_objects, write_root
from tests.support.aksplan import plan_infra
from tests.support.cli import run
from tests.support.hclread import modules

EXAMPLE = "aks-nd-llama405b"
CLUSTER = "frontier-eus"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ib") / EXAMPLE
    shutil.copytree(DATA / EXAMPLE, folder)
    done = run("render", "--manifests", folder / "k8s", cwd=folder)
    assert done.exit_code == 0, done.stderr
    assert run("render", cwd=folder).exit_code == 0
    return folder


def _plans(folder: Path) -> dict[str, ServingPlan]:
    out: dict[str, ServingPlan] = {}
    for env_name, env in load_project(folder, today=TODAY).envs.items():
        for plan in serving_plans(env):
            out[label("ib", env_name, plan.name, plan.cluster)] = plan
    return out


def _plain(value: object) -> Any:
    """A parsed HCL value without the parser's block markers."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not k.startswith("__")}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def test_each_pod_of_a_group_requests_rdma_ib_and_may_lock_memory(project: Path) -> None:
    (plan,) = _plans(project).values()
    assert plan.requests["rdma/ib"] == plan.limits["rdma/ib"] == "1"
    objects = list(
        yaml.safe_load_all(
            (project / "k8s" / "dev" / CLUSTER / "serving" / "llama-405b.yaml").read_text()
        )
    )
    kinds = {o["kind"]: o for o in objects}
    leader, worker = leader_worker(kinds["LeaderWorkerSet"])
    for container in (leader, worker):
        assert container["resources"]["requests"]["rdma/ib"] == "1"
        assert container["securityContext"]["capabilities"] == {
            "drop": ["ALL"],
            "add": ["IPC_LOCK"],
        }
        assert container["securityContext"]["allowPrivilegeEscalation"] is False
    # Kueue admits a group only if its ClusterQueue covers rdma/ib too: (1 + 1 surge) x 2 pods.
    (group,) = kinds["ClusterQueue"]["spec"]["resourceGroups"]
    quotas = {r["name"]: r["nominalQuota"] for r in group["flavors"][0]["resources"]}
    assert quotas["rdma/ib"] == "4"
    for obj in objects:
        assert crds.check_object(obj, crds.Result()) == [], obj["kind"]


def test_the_group_plans_and_equals_the_plain_manifests(project: Path, tmp_path: Path) -> None:
    plans = _plans(project)
    write_root(tmp_path / "root", plans, lambda _file, text: text)
    planned = planned_objects(tmp_path / "root")
    (module,) = planned.values()
    assert ("LeaderWorkerSet", "llama-405b") in module
    assert compare(plans, planned) == []


def test_the_nic_cluster_policy_plans_and_equals_the_plain_manifest(
    project: Path, tmp_path: Path
) -> None:
    serving = project / "envs" / "dev" / CLUSTER / "serving" / "main.tf"
    args = modules(serving)[f"fabric_{CLUSTER}"]
    assert str(args.pop("source")).endswith("modules/nic-cluster-policy/1.0.0")
    args.pop("providers")
    args = _plain(args)
    assert args["pools"] == ["ndh100"] and args["resource_name"] == "ib"
    root = tmp_path / "root"
    for file, text in release_files(latest("nic-cluster-policy")).items():
        if file.endswith(".tf"):
            (root / "module").mkdir(parents=True, exist_ok=True)
            (root / "module" / file).write_text(text, encoding="utf-8")
    (root / "main.tf").write_text(
        'terraform {\n  required_providers {\n    kubernetes = { source = "hashicorp/kubernetes" }\n'
        '  }\n}\n\nprovider "kubernetes" {}\n\n'
        f'module "fabric" {{\n  source = "./module"\n\n{attributes(args, 1)}\n}}\n',
        encoding="utf-8",
    )
    planned = planned_objects(root)["fabric"][("NicClusterPolicy", "nic-cluster-policy")]
    manifest = yaml.safe_load(
        (project / "k8s" / "dev" / CLUSTER / "serving" / "nic-cluster-policy.yaml").read_text()
    )
    assert planned == manifest
    assert crds.check_object(manifest, crds.Result()) == []
    spec = manifest["spec"]
    terms = spec["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"][0]["matchExpressions"][0]["values"] == ["ndh100"]
    assert spec["ofedDriver"]["version"] == "doca3.4.0-26.04-0.8.6.0-0"
    assert '"resourceName":"ib"' in spec["rdmaSharedDevicePlugin"]["config"]
    # The drain of a driver upgrade waits at least for the servers' termination grace.
    (plan,) = _plans(project).values()
    assert spec["ofedDriver"]["upgradePolicy"]["drain"]["timeoutSeconds"] >= plan.grace_seconds


def test_a_policy_the_crd_refuses_is_refused(project: Path) -> None:
    manifest = yaml.safe_load(
        (project / "k8s" / "dev" / CLUSTER / "serving" / "nic-cluster-policy.yaml").read_text()
    )
    del manifest["spec"]["rdmaSharedDevicePlugin"]["image"]  # required by the CRD
    assert crds.check_object(manifest, crds.Result())


def test_the_platform_installs_the_network_operator(project: Path) -> None:
    (args,) = modules(project / "envs" / "dev" / CLUSTER / "platform" / "main.tf").values()
    assert str(args["source"]).endswith("modules/gpu-platform/1.8.0")
    assert args["network_operator"] is True
    assert args["device_plugin"] == "gpu-operator" and args["operator_driver"] is True
    assert args["gpudirect_rdma"] is True
    chart = args["charts"]["network-operator"]  # type: ignore[index]
    assert chart == {
        "chart": "network-operator",
        "repository": "https://helm.ngc.nvidia.com/nvidia",
        "version": "v26.4.0",
    }


@pytest.mark.terraform
def test_the_pool_tells_the_autoscaler_its_nodes_offer_rdma_ib(project: Path) -> None:
    planned = plan_infra(project / "envs" / "dev" / CLUSTER / "infra")
    pool = planned[f"module.pool_{CLUSTER}_ndh100.azurerm_kubernetes_cluster_node_pool.this"]
    tags = pool["tags"]
    assert isinstance(tags, dict)
    assert tags["k8s.io_cluster-autoscaler_node-template_resources_rdma_ib"] == "63"
    assert tags["k8s.io_cluster-autoscaler_node-template_resources_nvidia.com_gpu"] == "8"
    assert pool["vm_size"] == "Standard_ND96isr_H100_v5"
    # The GPU Operator installs the driver (with nvidia-peermem): AKS must install none.
    assert pool["gpu_driver"] == "None"


def test_the_network_operator_pods_are_counted_on_the_infiniband_nodes(project: Path) -> None:
    env = next(iter(load_project(project, today=TODAY).envs.values()))
    (cluster,) = env.spec.clusters
    (pool,) = cluster.node_pools
    shape = catalog.shape("aks", pool.machine_type)
    assert shape is not None
    pods = node_pods(env.spec, cluster, pool, shape)
    assert pods is not None
    names = {p.name for p in pods}
    assert {
        "gpu-operator node operands",
        "gpu-operator-node-feature-discovery-worker",
        "network-operator node operands",
    } <= names
    # One NFD: the GPU Operator's workers label the HCAs (PCI class 0207, vendor 15b3) that
    # the Network Operator's daemonsets select, so the Network Operator's own NFD is off.
    assert "network-operator-node-feature-discovery-worker" not in names


def test_conformance_of_the_rendered_roots(project: Path) -> None:
    # The NicClusterPolicy is held to network-operator v26.4.0's CRD there too.
    result = run("conformance", project / "envs", project / "modules")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "NicClusterPolicy (mellanox.com/v1alpha1)" in result.stdout + result.stderr
