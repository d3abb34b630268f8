"""GPUDirect-TCPXO on GKE: the gke-a3-mega example, Llama 3.1 405B on groups of 2 x a3-megagpu-8g;
and GPU networks named by the spec instead of created.

Read against the sources, each rendered value must hold:

- Infra (cluster-toolkit ``gke-a3-megagpu`` blueprint and ``modules/network/multivpc``): eight
  gVNIC VPCs with one subnet each, MTU 8244, a rule opening each to its own range, the cluster's
  ``enable_multi_networking`` and the pool's eight ``additional_node_network_configs``.
- Platform (container-engine-accelerators 992db81 ``gpudirect-tcpxo``, ``nri_device_injector``):
  a GKENetworkParamSet in device mode NetDevice and a Network per subnet, named vpc1 ... vpc8 as
  Google's pods name them; the nccl-tcpxo-installer and device-injector DaemonSets on nodes of
  the nvidia-h100-mega-80gb accelerator.
- Serving (``nccl-test-latest.yaml``, ``best-practice.md``): leader and workers carry the
  interfaces annotation (eth0 default, eth1..eth8 the GPU networks) and the NRI annotation of
  the tcpxo-daemon's devices; the daemon is a native sidecar (restartPolicy Always) with
  NET_ADMIN and NET_BIND_SERVICE and the node's /sys and /proc/sys; the server maps
  /dev/aperture_devices and sources the plugin's nccl-env-profile.sh; no network resource is
  requested (Google's pods request none).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import kubernetes_validate
import pytest

from gpuplat import crds
from gpuplat.manifests.objects import serving_objects
from gpuplat.spec.load import load_project
from gpuplat.targets.gke.fabric import platform_input
from gpuplat.workload.serving import ServingPlan, serving_plans
from tests.fidelity.test_offline_plan import _plan
from tests.parity.test_serving import compare, label, planned_objects, write_root
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import project
from tests.support.standin import build_stand_ins
from tests.support.standin import run as terraform

VPCS = [f"vpc{i}" for i in range(1, 9)]
SUBNETS = [f"192.168.{128 + 8 * i}.0/21" for i in range(8)]
EXISTING = "".join(
    f"            - {{network: shared-gpunet-{i}, subnetwork: shared-gpunet-{i}-subnet}}\n"
    for i in range(8)
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = project(tmp_path_factory.mktemp("a3m"), example="gke-a3-mega")
    checked = run("validate", "--strict", cwd=root)
    assert checked.exit_code == 0, checked.stderr
    rendered = run("render", cwd=root)
    assert rendered.exit_code == 0, rendered.stderr
    return root


def _root(folder: Path, stage: str) -> Path:
    return folder / "envs" / "dev" / "mega-central" / stage


def test_the_cluster_gets_eight_gvnic_vpcs_and_the_pool_an_interface_on_each(
    folder: Path,
) -> None:
    infra = modules(_root(folder, "infra") / "main.tf")
    cluster = infra["cluster_mega-central"]
    assert "rdma_network" not in cluster
    nets = cluster["gpu_networks"]
    assert nets["mtu"] == 8244
    assert [n["name"] for n in nets["networks"]] == [f"mega-central-gpunet-{i}" for i in range(8)]
    assert [n["cidr"] for n in nets["networks"]] == SUBNETS
    pool = infra["pool_mega-central_h100mega"]
    networks = pool["additional_node_networks"]
    assert len(networks) == 8
    assert networks[5] == {
        "network": "${module.cluster_mega-central.gpu_networks[5]}",
        "subnetwork": "${module.cluster_mega-central.gpu_subnetworks[5]}",
    }


@pytest.mark.terraform
def test_terraform_plans_the_gvnic_vpcs_and_the_pool_on_them(folder: Path) -> None:
    planned = _plan(_root(folder, "infra"))
    prefix = "module.cluster_mega-central"
    networks = [planned[f"{prefix}.google_compute_network.gpu[{i}]"] for i in range(8)]
    assert {(n["mtu"], n["auto_create_subnetworks"]) for n in networks} == {(8244, False)}
    assert all(n.get("network_profile") in (None, "") for n in networks)
    subnets = [planned[f"{prefix}.google_compute_subnetwork.gpu[{i}]"] for i in range(8)]
    assert [s["ip_cidr_range"] for s in subnets] == SUBNETS
    assert {s["region"] for s in subnets} == {"us-central1"}
    rules = [planned[f"{prefix}.google_compute_firewall.gpu_internal[{i}]"] for i in range(8)]
    assert [r["source_ranges"] for r in rules] == [[c] for c in SUBNETS]
    assert f"{prefix}.google_compute_network.rdma[0]" not in planned
    assert planned[f"{prefix}.google_container_cluster.this"]["enable_multi_networking"] is True
    pool = planned["module.pool_mega-central_h100mega.google_container_node_pool.this"]
    (config,) = pool["network_config"]
    assert len(config["additional_node_network_configs"]) == 8


def test_the_platform_names_each_subnet_a_netdevice_network_and_installs_tcpxo(
    folder: Path,
) -> None:
    platform = next(iter(modules(_root(folder, "platform") / "main.tf").values()))
    gpudirect = platform["gpudirect"]
    assert gpudirect["type"] == "tcpxo"
    assert [n["name"] for n in gpudirect["networks"]] == VPCS
    assert gpudirect["networks"][0] == {
        "name": "vpc1",
        "vpc": "mega-central-gpunet-0",
        "subnet": "mega-central-gpunet-0-subnet",
    }
    assert gpudirect["accelerators"] == ["nvidia-h100-mega-80gb"]
    assert gpudirect["installer_image"].endswith("/nccl-plugin-gpudirecttcpx-dev:v1.0.15")
    assert gpudirect["nri_image"].startswith("gcr.io/gke-release/nri-device-injector@sha256:")
    module = (folder / "modules" / "gpu-platform").glob("*/main.tf")
    text = next(iter(module)).read_text(encoding="utf-8")
    assert 'deviceMode = var.gpudirect.type == "tcpxo" ? "NetDevice" : "RDMA"' in text
    obj = {
        "apiVersion": "networking.gke.io/v1",
        "kind": "GKENetworkParamSet",
        "metadata": {"name": "vpc1"},
        "spec": {"vpc": "v", "vpcSubnet": "s", "deviceMode": "NetDevice"},
    }
    assert crds.check_object(obj, crds.Result()) == []


# The platform root reaches its cluster through the infra state and a Google token; planned
# offline, its providers point nowhere (the stand-ins never call them).
OFFLINE_PROVIDERS = """\
provider "kubernetes" {
  alias = "cluster_mega-central"
  host  = "https://127.0.0.1:1"
  token = "offline"
}

provider "helm" {
  alias = "cluster_mega-central"
  kubernetes = {
    host  = "https://127.0.0.1:1"
    token = "offline"
  }
}
"""


@pytest.mark.terraform
def test_the_platform_root_plans_the_tcpxo_daemonsets_and_networks(
    folder: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "project"
    shutil.copytree(folder / "envs", copy / "envs")
    shutil.copytree(folder / "modules", copy / "modules")
    root = copy / "envs" / "dev" / "mega-central" / "platform"
    (root / "providers.tf").write_text(OFFLINE_PROVIDERS, encoding="utf-8")
    (root / "backend.tf").write_text("# local state for an offline plan\n", encoding="utf-8")
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=p.tfplan")):
        done = terraform(cli, root, *args, timeout=900)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stdout}\n{done.stderr}"
    shown = terraform(cli, root, "show", "-json", "p.tfplan", timeout=600)
    manifests = {
        c["address"].split(".", 2)[2]: c["change"]["after"]["manifest"]
        for c in json.loads(shown.stdout)["resource_changes"]
        if c["type"] == "kubernetes_manifest"
    }
    params = [m for m in manifests.values() if m["kind"] == "GKENetworkParamSet"]
    assert sorted(m["metadata"]["name"] for m in params) == VPCS
    assert {m["spec"]["deviceMode"] for m in params} == {"NetDevice"}
    assert "kubernetes_manifest.gib_installer[0]" not in manifests
    installer = manifests["kubernetes_manifest.tcpxo_installer[0]"]
    injector = manifests["kubernetes_manifest.device_injector[0]"]
    for daemonset in (installer, injector):
        kubernetes_validate.validate(daemonset, "1.34.0", strict=True)
        terms = daemonset["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
            "requiredDuringSchedulingIgnoredDuringExecution"
        ]["nodeSelectorTerms"]
        assert terms[0]["matchExpressions"][0]["values"] == ["nvidia-h100-mega-80gb"]
    first, second = installer["spec"]["template"]["spec"]["initContainers"]
    assert first["command"][:4] == ["nsenter", "-at", "1", "--"]
    assert "mount --bind" in first["command"][-1] and "1ae0:0084" in first["command"][-1]
    assert "/scripts/container_entry.sh install --install-nccl" in second["args"][0]


def _plans(folder: Path) -> dict[str, ServingPlan]:
    return {
        label("a3m", name, plan.name, plan.cluster): plan
        for name, env in load_project(folder).envs.items()
        for plan in serving_plans(env)
    }


def test_every_pod_of_the_group_runs_the_tcpxo_daemon_beside_the_server(folder: Path) -> None:
    (plan,) = serving_plans(load_project(folder).envs["dev"])
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    template = objects["LeaderWorkerSet"]["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        pod = template[role]
        annotations = pod["metadata"]["annotations"]
        interfaces = json.loads(annotations["networking.gke.io/interfaces"])
        assert interfaces[0] == {"interfaceName": "eth0", "network": "default"}
        assert [i["network"] for i in interfaces[1:]] == VPCS
        assert [i["interfaceName"] for i in interfaces[1:]] == [f"eth{i}" for i in range(1, 9)]
        devices = annotations["devices.gke.io/container.tcpxo-daemon"]
        assert devices.splitlines()[0] == "- path: /dev/nvidia0"
        assert "- path: /dev/dmabuf_import_helper" in devices.splitlines()
        spec = pod["spec"]
        *_, daemon = spec["initContainers"]
        assert daemon["name"] == "tcpxo-daemon" and daemon["restartPolicy"] == "Always"
        assert daemon["securityContext"]["capabilities"]["add"] == ["NET_ADMIN", "NET_BIND_SERVICE"]
        assert {m["mountPath"] for m in daemon["volumeMounts"]} == {
            "/usr/local/nvidia/lib64",
            "/hostsysfs",
            "/hostprocsysfs",
        }
        volumes = {v["name"]: v for v in spec["volumes"]}
        assert volumes["proc-sys"] == {"name": "proc-sys", "hostPath": {"path": "/proc/sys"}}
        (server,) = spec["containers"]
        assert not any(k.startswith("networking.gke.io") for k in server["resources"]["limits"])
        assert {
            "name": "aperture-devices",
            "mountPath": "/dev/aperture_devices",
            "readOnly": False,
        } in server["volumeMounts"]
        env = {e["name"]: e.get("value") for e in server["env"]}
        assert env["NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY"] == "/dev/aperture_devices"
        assert server["command"][2].startswith(". /usr/local/nvidia/lib64/nccl-env-profile.sh && ")
    queue = objects["ClusterQueue"]["spec"]["resourceGroups"][0]  # type: ignore[index]
    assert not any(r.startswith("networking.gke.io") for r in queue["coveredResources"])


def test_nccl_starts_only_once_the_tcpxo_daemon_is_initialized(folder: Path) -> None:
    # best-practice.md: given HEALTH_CHECK_LOG_FILE, RxDM writes that file once initialized
    # (never on a bad node) and a startup probe reads it. A native sidecar's startup probe
    # holds back the pod's next containers: the server, whose launch starts NCCL.
    (plan,) = serving_plans(load_project(folder).envs["dev"])
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    lws = objects["LeaderWorkerSet"]
    template = lws["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        spec = template[role]["spec"]
        *_, daemon = spec["initContainers"]
        assert daemon["restartPolicy"] == "Always"
        env = {e["name"]: e["value"] for e in daemon["env"]}
        health = env["HEALTH_CHECK_LOG_FILE"]
        assert "_" not in health  # the daemon writes no file whose name holds an underscore
        probe = daemon["startupProbe"]
        assert probe["exec"] == {"command": ["cat", health]}
        assert (probe["initialDelaySeconds"], probe["periodSeconds"]) == (1, 5)
        # Allowed at least the daemon's ~30 s initialization, and at most a few minutes.
        budget = probe["initialDelaySeconds"] + probe["periodSeconds"] * probe["failureThreshold"]
        assert 30 < budget <= 180
        assert [c["name"] for c in spec["containers"]] == ["server"]
    assert crds.check_object(lws, crds.Result()) == []


@pytest.mark.terraform
def test_the_group_with_its_sidecar_plans_and_equals_the_plain_manifests(
    folder: Path, tmp_path: Path
) -> None:
    plans = _plans(folder)
    write_root(tmp_path / "root", plans, lambda _file, text: text)
    planned = planned_objects(tmp_path / "root")
    assert all(("LeaderWorkerSet", "llama-405b") in m for m in planned.values())
    assert compare(plans, planned) == []


def test_existing_gpu_networks_are_attached_by_name_and_none_is_created(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        (
            (
                "          type: tcpxo # 8 VPCs mega-central-gpunet-0..7, one /21 of "
                "192.168.128.0/18 each\n",
                "          type: tcpxo\n          networks:\n" + EXISTING,
            ),
        ),
        example="gke-a3-mega",
    )
    checked = run("validate", "--strict", cwd=root)
    assert checked.exit_code == 0, checked.stderr
    assert run("render", cwd=root).exit_code == 0
    infra = modules(_root(root, "infra") / "main.tf")
    cluster = infra["cluster_mega-central"]
    assert cluster["multi_networking"] is True
    assert "gpu_networks" not in cluster and "rdma_network" not in cluster
    networks = infra["pool_mega-central_h100mega"]["additional_node_networks"]
    assert networks[7] == {"network": "shared-gpunet-7", "subnetwork": "shared-gpunet-7-subnet"}
    (cluster_spec,) = load_project(root).envs["dev"].spec.clusters
    gpudirect = platform_input(cluster_spec)
    assert gpudirect is not None
    assert gpudirect["networks"][7] == {  # type: ignore[index]
        "name": "vpc8",
        "vpc": "shared-gpunet-7",
        "subnet": "shared-gpunet-7-subnet",
    }


def test_existing_rdma_networks_are_attached_by_name(tmp_path: Path) -> None:
    names = "".join(
        f"            - {{network: acme-roce, subnetwork: acme-roce-sub-{i}}}\n" for i in range(8)
    )
    root = project(
        tmp_path,
        (
            (
                "          type: rdma # the RDMA VPC (us-central1-b-vpc-roce) and its 8 subnets "
                "in 192.168.128.0/18\n",
                "          type: rdma\n          networks:\n" + names,
            ),
        ),
        example="gke-a3-ultra",
    )
    checked = run("validate", "--strict", cwd=root)
    assert checked.exit_code == 0, checked.stderr
    env = load_project(root).envs["dev"]
    (cluster,) = env.spec.clusters
    gpudirect = platform_input(cluster)
    assert gpudirect is not None
    assert gpudirect["networks"][3] == {  # type: ignore[index]
        "name": "rdma-3",
        "vpc": "acme-roce",
        "subnet": "acme-roce-sub-3",
    }
    (plan,) = serving_plans(env)
    assert plan.devices["networking.gke.io.networks/rdma-0"] == "1"


@pytest.mark.terraform
def test_terraform_plans_existing_networks_without_creating_one(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        (
            (
                "          type: tcpxo # 8 VPCs mega-central-gpunet-0..7, one /21 of "
                "192.168.128.0/18 each\n",
                "          type: tcpxo\n          networks:\n" + EXISTING,
            ),
        ),
        example="gke-a3-mega",
    )
    assert run("render", cwd=root).exit_code == 0
    planned = _plan(_root(root, "infra"))
    assert not any(".google_compute_network." in a for a in planned)
    prefix = "module.cluster_mega-central"
    assert planned[f"{prefix}.google_container_cluster.this"]["enable_multi_networking"] is True
    pool = planned["module.pool_mega-central_h100mega.google_container_node_pool.this"]
    (config,) = pool["network_config"]
    assert config["additional_node_network_configs"][0] == {
        "network": "shared-gpunet-0",
        "subnetwork": "shared-gpunet-0-subnet",
    }
