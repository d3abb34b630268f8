"""A replica's share of its node, worked by hand from the catalog; and every example packs.

The clouds' documented reservations (targets/<cloud>/node.py) and the DaemonSets on every GPU
node (catalog daemonsets.yaml, as far as each example turns them on) are checked against
numbers worked out here by hand, the same ones the README's table shows. Then every example's
requests are checked to pack: on every pool a workload may use, as many replicas as the node has
GPU slices fit by CPU and memory too, and they leave the node its margin.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat import catalog
from gpuplat.app.init import list_examples
from gpuplat.spec.load import load_project
from gpuplat.spec.model import Spec
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets.eks import node as eks_node
from gpuplat.targets.gke import node as gke_node
from gpuplat.workload.allocatable import NodeShare, node_share
from gpuplat.workload.resources import FALLBACK, pod_requests
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run
from tests.support.specs import h200_project, project

GKE_L4_PODS = {
    # name: (m, Mi) -- GKE's own, then none of gpuplat's (GKE's plugin, driver and DCGM).
    "nvidia-gpu-device-plugin": (50, 100),
    "nvidia-driver-installer": (150, 0),  # its init containers' 150m; the pause asks nothing
    "anetd": (200, 0),
    "netd, pdcsi-node": (18, 80),
    "fluentbit-gke": (105, 230),
    "gke-metadata-server": (100, 100),
    "gke-metrics-agent": (6, 100),
    "gcsfusecsi-node": (15, 20),
    "collector": (5, 35),  # 1m + 4m; 4M + 32M = 3.8 + 30.5 MiB, each rounded up
    "nvidia-dcgm, dcgm-exporter": (100, 128),
}


def shape(cloud: str, name: str) -> catalog.Shape:
    found = catalog.shape(cloud, name)
    assert found is not None
    return found


def example_spec(tmp_path: Path, name: str, env: str = "prod") -> Spec:
    assert run("init", "--example", name, tmp_path).exit_code == 0
    return load_project(tmp_path, [env]).envs[env].spec


def first_node(spec: Spec) -> NodeShare:
    cluster = spec.clusters[0]
    node = node_share(spec, cluster, cluster.node_pools[0])
    assert node is not None
    return node


def pods(node: NodeShare) -> dict[str, tuple[int, int]]:
    return {p.name: (p.requests.cpu_millis, p.requests.memory_mib) for p in node.pods}


def test_gke_reserve_of_a_g2_standard_8() -> None:
    # 8 vCPU: 6% of 1000m + 1% of 1000m + 0.5% of 2000m + 0.25% of 4000m = 60+10+10+10 = 90m.
    # 32 GiB = 32768 MiB: 25% of 4096 + 20% of 4096 + 10% of 8192 + 6% of 16384
    # = 1024 + 819.2 + 819.2 + 983.04 = 3645.44 -> 3645, + 100 eviction = 3745 MiB.
    reserve = gke_node.kubelet_reserve(shape("gke", "g2-standard-8"))
    assert (reserve.cpu_millis, reserve.memory_mib) == (90, 3745)


def test_gke_reserve_of_an_a3_highgpu_8g() -> None:
    # 208 vCPU: 80m for the first 4 + 0.25% of 204000m = 80 + 510 = 590m.
    # 1872 GiB: 3645.44 MiB for the first 16 GiB... + 6% of 112 GiB (6881.28) for the rest up
    # to 128 GiB, + 2% of 1744 GiB (35717.12): 1024 + 819.2 + 819.2 + 6881.28 + 35717.12
    # = 45260.8 -> 45261, + 100 = 45361 MiB.
    reserve = gke_node.kubelet_reserve(shape("gke", "a3-highgpu-8g"))
    assert (reserve.cpu_millis, reserve.memory_mib) == (590, 45361)


def test_eks_reserve_of_a_g6_xlarge() -> None:
    # 4 vCPU: 60 + 10 + 10 = 80m. maxPods 58 (4 ENIs x (15 - 1) + 2, eni-max-pods.txt):
    # 11 x 58 + 255 = 893 MiB, + 100 eviction = 993 MiB.
    reserve = eks_node.kubelet_reserve(shape("eks", "g6.xlarge"))
    assert (reserve.cpu_millis, reserve.memory_mib) == (80, 993)


def test_gke_l4_worked_example(tmp_path: Path) -> None:
    """gke-l4-vllm prod: g2-standard-8 (8 vCPU, 32 GiB, one L4 time-sliced in 2)."""
    spec = example_spec(tmp_path, "gke-l4-vllm")
    node = first_node(spec)
    assert pods(node) == GKE_L4_PODS  # nothing of gpuplat's: GKE's plugin, driver and DCGM
    # DaemonSets: 50+150+200+18+105+100+6+15+5+100 = 749m; 100+80+230+100+100+20+35+128 = 793Mi.
    assert (node.daemonsets.cpu_millis, node.daemonsets.memory_mib) == (749, 793)
    # Allocatable: 8000 - 90 = 7910m; 32768 x 0.925 = 30310 - 3745 = 26565Mi.
    # Margin: 100m + 1% of 7910 (79.1 -> 80) = 180m; 256Mi + 1% of 26565 (265.65 -> 266) = 522Mi.
    assert (node.reserved_margin.cpu_millis, node.reserved_margin.memory_mib) == (180, 522)
    # Left: 7910 - 749 - 180 = 6981m; 26565 - 793 - 522 = 25250Mi; half each.
    assert (node.cpu_millis, node.memory_mib) == (6981, 25250)
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert (plan.cpu, plan.memory) == ("3490m", "12625Mi")


def test_gke_h200_worked_example(tmp_path: Path) -> None:
    """A whole a3-ultragpu-8g node (224 vCPU, 2952 GiB, 8 H200) per replica, FUSE weights."""
    spec = load_project(h200_project(tmp_path), ["dev"]).envs["dev"].spec
    node = first_node(spec)
    assert pods(node) == GKE_L4_PODS  # the same GKE pods; none scales with the node here
    # Kubelet: 80m + 0.25% of 220000m = 630m; memory 9543.68 MiB for the first 128 GiB + 2% of
    # 2824 GiB (57835.52) = 67379.2 -> 67379 + 100 = 67479Mi.
    assert (node.kubelet.cpu_millis, node.kubelet.memory_mib) == (630, 67479)
    # Allocatable: 224000 - 630 = 223370m; 3022848 x 0.925 = 2796134 - 67479 = 2728655Mi.
    # Margin: 100 + 2234 (1% of 223370, up) = 2334m; 256 + 27287 (1% of 2728655, up) = 27543Mi.
    assert (node.reserved_margin.cpu_millis, node.reserved_margin.memory_mib) == (2334, 27543)
    # Left: 223370 - 749 - 2334 = 220287m; 2728655 - 793 - 27543 = 2700319Mi.
    assert (node.cpu_millis, node.memory_mib) == (220287, 2700319)
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    # Less the Cloud Storage FUSE sidecar (250m, 256Mi) the pod also runs. Before this
    # account, the server asked for 222620m: 224000 - 630 - 500 - 250, the node's last
    # millicore once a flat 500m was taken for GKE's own pods.
    assert (plan.cpu, plan.memory) == ("220037m", "2700063Mi")


def test_eks_g6_xlarge_worked_example(tmp_path: Path) -> None:
    """eks-l4-vllm prod: g6.xlarge (4 vCPU, 16 GiB, one L4 time-sliced in 2)."""
    spec = example_spec(tmp_path, "eks-l4-vllm")
    node = first_node(spec)
    assert pods(node) == {
        "aws-node": (50, 0),  # aws-node 25m + its network policy agent 25m
        "kube-proxy": (100, 0),
        "eks-pod-identity-agent": (0, 0),
        "nvidia-device-plugin": (0, 0),
        "gpu-feature-discovery": (0, 0),
        "node-feature-discovery-worker": (5, 64),
        "dcgm-exporter": (100, 128),
    }
    # 4000 - 80 = 3920m; 16384 x 0.925 = 15155 - 993 = 14162Mi.
    # Margin: 100 + 40 (1% of 3920, up) = 140m; 256 + 142 (1% of 14162, up) = 398Mi.
    # Left: 3920 - 255 - 140 = 3525m -> 1762m each; 14162 - 192 - 398 = 13572Mi -> 6786Mi.
    assert (node.cpu_millis, node.memory_mib) == (3525, 13572)
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert (plan.cpu, plan.memory) == ("1762m", "6786Mi")
    # The init container asks for no more than the server, so the pod's effective request is
    # the server's: two fit on the node.
    assert plan.weights.init_requests == {"cpu": "1", "memory": "2Gi"}


def test_aks_nc24ads_a100_worked_example(tmp_path: Path) -> None:
    """aks-a100-vllm prod: Standard_NC24ads_A100_v4 (24 vCPU, 220 GiB, one A100 in 2 MIGs)."""
    spec = example_spec(tmp_path, "aks-a100-vllm")
    node = first_node(spec)
    assert pods(node) == {
        "cilium": (350, 300),
        "azure-cns": (100, 250),
        "azure-ip-masq-agent": (100, 50),
        "cloud-node-manager": (50, 50),
        "csi-azuredisk-node": (30, 60),
        "csi-blob-node": (30, 60),
        "nvidia-device-plugin": (0, 0),
        "gpu-feature-discovery": (0, 0),
        "node-feature-discovery-worker": (5, 64),
        "dcgm-exporter": (100, 128),
    }
    # Kubelet: 60 + 40 + 2 x 20 + 20 x 10 = 340m; 20 x 110 pods + 50 + 100 = 2350Mi.
    # 24000 - 340 = 23660m; 225280 x 0.925 = 208384 - 2350 = 206034Mi.
    # Margin: 100 + 237 = 337m; 256 + 2061 = 2317Mi.
    # Left: 23660 - 765 - 337 = 22558m; 206034 - 962 - 2317 = 202755Mi; half each.
    assert (node.cpu_millis, node.memory_mib) == (22558, 202755)
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert (plan.cpu, plan.memory) == ("11279m", "101377Mi")


EXAMPLES = [name for name, _ in list_examples()]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_packs_its_slices_and_leaves_the_margin(example: str, tmp_path: Path) -> None:
    """On every pool of every example, units // gpus replicas fit the node by CPU and memory
    after its DaemonSets, leave its margin, and one more replica's worth would not."""
    assert run("init", "--example", example, tmp_path).exit_code == 0
    project = load_project(tmp_path)
    checked = 0
    for env in project.envs.values():
        spec = env.spec
        clusters = {c.name: c for c in spec.clusters}
        for workload in spec.workloads:
            for name, pools in workload_pools(spec, workload).items():
                cluster = clusters[name]
                plan = plan_workload(spec, workload, cluster)
                # The pod's whole request: the server, its sidecars (Cloud Storage FUSE), and
                # init containers, which run before and ask for no more than the server.
                pod = pod_requests(plan.cpu, plan.memory, fuse=plan.weights.mode == "gcsfuse")
                assert (pod.cpu_millis, pod.memory_mib) != (
                    FALLBACK.cpu_millis,
                    FALLBACK.memory_mib,
                )
                for pool in pools:
                    node = node_share(spec, cluster, pool)
                    assert node is not None
                    replicas = node.units // workload.gpus
                    # What the node offers pods, worked from the catalog, the reserve and the
                    # DaemonSets, less the margin.
                    cpu = node.shape.vcpus * 1000 - node.kubelet.cpu_millis
                    cpu -= sum(p.requests.cpu_millis for p in node.pods)
                    cpu -= node.margin.cpu_millis(node.shape.vcpus * 1000 - node.kubelet.cpu_millis)
                    assert node.pods, "every GPU node runs some DaemonSet"
                    assert replicas * pod.cpu_millis <= cpu, (env.name, pool.name)
                    assert replicas * pod.memory_mib <= node.memory_mib, (env.name, pool.name)
                    # ... and the share is not wasted: one more replica's worth would not fit.
                    assert (replicas + 1) * pod.cpu_millis > cpu
                    checked += 1
    assert checked >= 2


SMALLER_SPOT_RUNG = (
    (
        "        capacity:\n          type: spot\n",
        "        capacity:\n          - on-demand\n          - spot: {}\n            machine_type: g2-standard-4\n",
    ),
    ("      release_channel: REGULAR\n", '      release_channel: REGULAR\n      version: "1.33"\n'),
)


def test_a_ladder_rung_of_a_smaller_machine_sizes_the_requests(tmp_path: Path) -> None:
    """A rung may name its own machine (same GPUs): replicas must fit its nodes too. Before,
    the share came from the pool's machine only, and 3705m replicas could never start on the
    spot rung's 4-vCPU nodes."""
    folder = project(tmp_path, SMALLER_SPOT_RUNG)
    spec = load_project(folder, ["dev"]).envs["dev"].spec
    # g2-standard-4: 4000 - 80 = 3920m; 16384 x 0.925 = 15155 - 2762 = 12393Mi. Less the same
    # 749m / 793Mi of DaemonSets and a margin of 100 + 40 = 140m, 256 + 124 = 380Mi:
    # 3031m and 11220Mi, half each.
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert (plan.cpu, plan.memory) == ("1515m", "5610Mi")
