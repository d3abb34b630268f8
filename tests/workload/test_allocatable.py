"""A replica's share of its node, worked by hand from the catalog; and every example packs.

The clouds' documented reservations (targets/gke_node.py, targets/eks_node.py) are checked
against numbers worked out here by hand, then every example's requests are checked to pack:
on every pool a workload may use, as many replicas as the node has GPU slices fit by CPU and
memory too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat import catalog
from gpuplat.app.init import list_examples
from gpuplat.spec.load import load_project
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets import eks_node, gke_node
from gpuplat.workload.allocatable import node_share
from gpuplat.workload.quantity import cpu_millis, memory_mib
from gpuplat.workload.resources import FALLBACK
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run


def shape(cloud: str, name: str) -> catalog.Shape:
    found = catalog.shape(cloud, name)
    assert found is not None
    return found


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


def test_eks_l4_example_replica_share(tmp_path: Path) -> None:
    # g6.xlarge, time-sliced in 2: 4000m - 80m kubelet - 250m EKS add-ons - 5m NFD worker
    # = 3665m -> 1832m each. 16 GiB = 16384 MiB less 7.5% = 15155 MiB - 993 - 256 - 64
    # = 13842 MiB -> 6921 MiB each.
    assert run("init", "--example", "eks-l4-vllm", tmp_path).exit_code == 0
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert (plan.cpu, plan.memory) == ("1832m", "6921Mi")
    # The init container asks for no more than the server, so the pod's effective request is
    # the server's: two fit on the node.
    assert plan.weights.init_requests == {"cpu": "1", "memory": "2Gi"}


EXAMPLES = [name for name, _ in list_examples()]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_packs_its_slices(example: str, tmp_path: Path) -> None:
    """On every pool of every example, units // gpus replicas fit the node by CPU and memory."""
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
                cpu = cpu_millis(plan.cpu) or 0
                memory = memory_mib(plan.memory) or 0
                if plan.weights.mode == "gcsfuse":
                    cpu += cpu_millis(plan.pod_annotations["gke-gcsfuse/cpu-request"]) or 0
                    memory += memory_mib(plan.pod_annotations["gke-gcsfuse/memory-request"]) or 0
                assert (cpu, memory) != (FALLBACK.cpu_millis, FALLBACK.memory_mib)
                for pool in pools:
                    node = node_share(spec, cluster, pool)
                    assert node is not None
                    replicas = node.units // workload.gpus
                    # What the node offers pods, worked from the catalog and the reserve.
                    offered_cpu = node.shape.vcpus * 1000 - (
                        node.kubelet.cpu_millis
                        + node.system.cpu_millis
                        + node.daemonsets.cpu_millis
                    )
                    offered_memory = node.vm_memory_mib - (
                        node.kubelet.memory_mib
                        + node.system.memory_mib
                        + node.daemonsets.memory_mib
                    )
                    assert replicas * cpu <= offered_cpu, (env.name, pool.name)
                    assert replicas * memory <= offered_memory, (env.name, pool.name)
                    # ... and the share is not wasted: one more replica's worth would not fit.
                    assert (replicas + 1) * cpu > offered_cpu
                    checked += 1
    assert checked >= 2
