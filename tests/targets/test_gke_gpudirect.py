"""GPUDirect RDMA on GKE: the gke-a3-ultra example, DeepSeek-R1 on groups of 2 x a3-ultragpu-8g.

Read against the sources, each rendered value must hold:

- Infra (cluster-toolkit ``modules/network/gpu-rdma-vpc`` and ``gke-a3-ultragpu``; google
  provider 6.50.0 ``resource_compute_network.go``, ``resource_container_cluster.go``,
  ``node_config.go``): a VPC with the RoCE network profile of the pool's zone
  (``projects/P/global/networkProfiles/<zone>-vpc-roce``), MTU 8896, one subnet per GPU NIC
  (8, split from 192.168.128.0/18 like the blueprint's ``cidrsubnet(ip_range, 3, i)``), the
  cluster's ``enable_multi_networking`` and the pool's eight ``additional_node_network_configs``.
- Platform (container-engine-accelerators ``gpudirect-rdma``): a GKENetworkParamSet in device
  mode RDMA and a Network per subnet, named rdma-0 ... rdma-7 as Google's pods name them, and
  the gIB installer on nodes of the H200 accelerator.
- Serving: leader and workers carry the interfaces annotation (eth0 default, eth2..eth9 the RDMA
  networks), one of each ``networking.gke.io.networks/rdma-<i>``, gIB mounted at
  /usr/local/gib, NCCL's environment from gIB's script before the launcher; Kueue places a
  group by GKE's topology labels (a Topology, the flavor naming it, the podset annotations).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat import crds
from gpuplat.manifests.objects import serving_objects
from gpuplat.spec.load import load_project
from gpuplat.targets.gke.fabric import platform_input
from gpuplat.workload.serving import serving_plans
from tests.fidelity.test_offline_plan import _plan
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import project

RDMA = [f"rdma-{i}" for i in range(8)]
SUBNETS = [f"192.168.{128 + 8 * i}.0/21" for i in range(8)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = project(tmp_path_factory.mktemp("a3u"), example="gke-a3-ultra")
    checked = run("validate", "--strict", cwd=root)
    assert checked.exit_code == 0, checked.stderr
    rendered = run("render", cwd=root)
    assert rendered.exit_code == 0, rendered.stderr
    return root


def _root(folder: Path, stage: str) -> Path:
    return folder / "envs" / "dev" / "r1-central" / stage


def test_the_cluster_gets_the_roce_vpc_and_the_pool_an_interface_on_each_subnet(
    folder: Path,
) -> None:
    infra = modules(_root(folder, "infra") / "main.tf")
    cluster = infra["cluster_r1-central"]
    rdma = cluster["rdma_network"]
    assert rdma["name"] == "r1-central-rdma"
    assert rdma["profile"] == "projects/acme-r1-dev/global/networkProfiles/us-central1-b-vpc-roce"
    assert rdma["mtu"] == 8896
    assert [s["cidr"] for s in rdma["subnets"]] == SUBNETS
    assert [s["name"] for s in rdma["subnets"]] == [f"r1-central-rdma-sub-{i}" for i in range(8)]
    pool = infra["pool_r1-central_h200"]
    networks = pool["additional_node_networks"]
    assert len(networks) == 8
    assert networks[3] == {
        "network": "${module.cluster_r1-central.rdma_network}",
        "subnetwork": "${module.cluster_r1-central.rdma_subnetworks[3]}",
    }


def test_the_platform_names_each_subnet_a_network_and_installs_gib(folder: Path) -> None:
    platform = next(iter(modules(_root(folder, "platform") / "main.tf").values()))
    gpudirect = platform["gpudirect"]
    assert [n["name"] for n in gpudirect["networks"]] == RDMA
    assert gpudirect["networks"][0] == {
        "name": "rdma-0",
        "subnet": "r1-central-rdma-sub-0",
        "vpc": "r1-central-rdma",
    }
    assert gpudirect["accelerators"] == ["nvidia-h200-141gb"]
    assert gpudirect["installer_image"].startswith(
        "us-docker.pkg.dev/gce-ai-infra/gpudirect-gib/nccl-plugin-gib:"
    )
    # The module's literal objects pass the vendored networking.gke.io CRDs.
    for kind, spec in (
        ("GKENetworkParamSet", {"vpc": "v", "vpcSubnet": "s", "deviceMode": "RDMA"}),
        (
            "Network",
            {
                "type": "Device",
                "parametersRef": {
                    "group": "networking.gke.io",
                    "kind": "GKENetworkParamSet",
                    "name": "rdma-0",
                },
            },
        ),
    ):
        obj = {
            "apiVersion": "networking.gke.io/v1",
            "kind": kind,
            "metadata": {"name": "rdma-0"},
            "spec": spec,
        }
        assert crds.check_object(obj, crds.Result()) == []
    bad = {
        "apiVersion": "networking.gke.io/v1",
        "kind": "GKENetworkParamSet",
        "metadata": {"name": "rdma-0"},
        "spec": {"vpc": "v", "vpcSubnet": "s", "deviceMode": "RoCE"},
    }
    assert crds.check_object(bad, crds.Result()) != []


def _objects(folder: Path) -> dict[str, dict[str, object]]:
    (plan,) = serving_plans(load_project(folder).envs["dev"])
    return {str(o["kind"]): o for o in serving_objects(plan)}


def test_every_pod_of_the_group_talks_over_the_eight_rdma_networks(folder: Path) -> None:
    lws = _objects(folder)["LeaderWorkerSet"]
    template = lws["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        pod = template[role]
        annotations = pod["metadata"]["annotations"]
        assert annotations["networking.gke.io/default-interface"] == "eth0"
        interfaces = json.loads(annotations["networking.gke.io/interfaces"])
        assert interfaces[0] == {"interfaceName": "eth0", "network": "default"}
        assert [i["network"] for i in interfaces[1:]] == RDMA
        assert [i["interfaceName"] for i in interfaces[1:]] == [f"eth{i}" for i in range(2, 10)]
        (server,) = pod["spec"]["containers"]
        for kind in ("requests", "limits"):
            got = server["resources"][kind]
            assert all(got[f"networking.gke.io.networks/{n}"] == "1" for n in RDMA)
        assert {"name": "gib", "mountPath": "/usr/local/gib", "readOnly": True} in server[
            "volumeMounts"
        ]
        assert {"name": "gib", "hostPath": {"path": "/home/kubernetes/bin/gib"}} in pod["spec"][
            "volumes"
        ]
        env = {e["name"]: e.get("value") for e in server["env"]}
        assert env["LD_LIBRARY_PATH"] == "/usr/local/nvidia/lib64"
        shell, flag, script = server["command"]
        assert (shell, flag) == ("sh", "-c")
        assert script.startswith(". /usr/local/gib/scripts/set_nccl_env.sh && exec python3 -m ")
        assert "--tp 16" in script and "--nnodes '$(LWS_GROUP_SIZE)'" in script


def test_kueue_places_each_group_by_gke_topology(folder: Path) -> None:
    objects = _objects(folder)
    topology = objects["Topology"]
    assert [level["nodeLabel"] for level in topology["spec"]["levels"]] == [  # type: ignore[index]
        "cloud.google.com/gce-topology-block",
        "cloud.google.com/gce-topology-subblock",
        "cloud.google.com/gce-topology-host",
        "kubernetes.io/hostname",
    ]
    flavor = objects["ResourceFlavor"]
    assert flavor["spec"]["topologyName"] == topology["metadata"]["name"]  # type: ignore[index]
    template = objects["LeaderWorkerSet"]["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        annotations = template[role]["metadata"]["annotations"]
        assert annotations["kueue.x-k8s.io/podset-preferred-topology"] == (
            "cloud.google.com/gce-topology-subblock"
        )
        assert annotations["kueue.x-k8s.io/podset-group-name"] == "deepseek-r1"
    # The queue covers the RDMA networks the group's pods ask for (one group, no surge).
    queue = objects["ClusterQueue"]["spec"]["resourceGroups"][0]  # type: ignore[index]
    assert "networking.gke.io.networks/rdma-7" in queue["coveredResources"]
    for kind in ("Topology", "ResourceFlavor", "ClusterQueue"):
        assert crds.check_object(objects[kind], crds.Result()) == []


@pytest.mark.terraform
def test_terraform_plans_the_rdma_network_and_the_pool_on_it(folder: Path) -> None:
    planned = _plan(_root(folder, "infra"))
    prefix = "module.cluster_r1-central"
    network = planned[f"{prefix}.google_compute_network.rdma[0]"]
    assert network["network_profile"].endswith("/networkProfiles/us-central1-b-vpc-roce")
    assert (network["mtu"], network["auto_create_subnetworks"]) == (8896, False)
    subnets = [planned[f"{prefix}.google_compute_subnetwork.rdma[{i}]"] for i in range(8)]
    assert [s["ip_cidr_range"] for s in subnets] == SUBNETS
    assert {s["region"] for s in subnets} == {"us-central1"}
    assert planned[f"{prefix}.google_container_cluster.this"]["enable_multi_networking"] is True
    pool = planned["module.pool_r1-central_h200.google_container_node_pool.this"]
    (config,) = pool["network_config"]
    assert len(config["additional_node_network_configs"]) == 8


def test_an_a4_pool_gets_the_installer_on_b200_nodes(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        (
            ("machine_type: a3-ultragpu-8g", "machine_type: a4-highgpu-8g"),
            # A4's own local SSD count is not the point here: the weights go on the boot disk.
            ("          local_ssd_count: 32\n", ""),
            ("          size_gb: 200\n", "          size_gb: 2000\n"),
        ),
        example="gke-a3-ultra",
    )
    checked = run("validate", cwd=root)
    assert checked.exit_code == 0, checked.stderr
    env = load_project(root).envs["dev"]
    (cluster,) = env.spec.clusters
    gpudirect = platform_input(cluster)
    assert gpudirect is not None and gpudirect["accelerators"] == ["nvidia-b200"]
    (plan,) = serving_plans(env)
    assert plan.topology[0] == "cloud.google.com/gce-topology-block"
    assert plan.devices["networking.gke.io.networks/rdma-0"] == "1"
