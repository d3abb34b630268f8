"""Which DaemonSets a pool's nodes run follows from what the spec turns on, not from the list.

Each test changes one choice (the device plugin, the driver, DCGM metrics, EFA, a node image
with its own plugin) and checks the DaemonSets counted on the nodes it touches, and only there.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.spec.load import load_project
from gpuplat.spec.model import Spec
from gpuplat.workload.allocatable import node_share
from tests.support.specs import DRA_CLUSTER_PATCH, OPERATOR_PATCH, project
from tests.targets.test_eks_right import PATCHES as EKS_MIXED_POOLS

GKE_EVERY_NODE = {
    "anetd",
    "netd, pdcsi-node",
    "fluentbit-gke",
    "gke-metadata-server",
    "gke-metrics-agent",
    "gcsfusecsi-node",
    "collector",
}
"""What every node of gpuplat's GKE clusters runs, whatever the GPU add-ons."""


def names(spec: Spec, pool: str, cluster: int = 0) -> set[str]:
    found = spec.clusters[cluster]
    node = node_share(spec, found, next(p for p in found.node_pools if p.name == pool))
    assert node is not None
    return {p.name for p in node.pods}


def dev(folder: Path) -> Spec:
    return load_project(folder, ["dev"]).envs["dev"].spec


def test_gke_with_its_own_plugin_and_driver(tmp_path: Path) -> None:
    spec = dev(project(tmp_path))
    assert names(spec, "l4-shared") == GKE_EVERY_NODE | {
        "nvidia-gpu-device-plugin",
        "nvidia-driver-installer",
        "nvidia-dcgm, dcgm-exporter",
    }


def test_gke_with_the_gpu_operator_drops_gkes_plugin(tmp_path: Path) -> None:
    # The pools get gke-no-default-nvidia-gpu-device-plugin; GKE still installs the driver, and
    # its managed DCGM is off: the operator exports the GPU metrics.
    spec = dev(project(tmp_path, OPERATOR_PATCH))
    assert names(spec, "l4-shared") == GKE_EVERY_NODE | {
        "nvidia-driver-installer",
        "gpu-operator node operands",
        "gpu-operator-node-feature-discovery-worker",
    }


def test_gke_with_dra_and_no_gke_driver(tmp_path: Path) -> None:
    spec = dev(project(tmp_path, DRA_CLUSTER_PATCH))
    assert names(spec, "l4-shared") == GKE_EVERY_NODE | {
        "gpu-operator node operands",
        "gpu-operator-node-feature-discovery-worker",
        "nvidia-dra-driver-gpu-kubelet-plugin",
    }


def test_eks_pools_each_get_their_own(tmp_path: Path) -> None:
    spec = dev(project(tmp_path, EKS_MIXED_POOLS, example="eks-l4-vllm"))
    cloud = {"aws-node", "kube-proxy", "eks-pod-identity-agent"}
    chart = {"node-feature-discovery-worker", "dcgm-exporter"}
    plugin = {"nvidia-device-plugin", "gpu-feature-discovery"}
    assert names(spec, "l4-shared") == cloud | chart | plugin
    # p5.48xlarge has EFA: the EFA plugin's DaemonSet selects it (not the g6 nodes).
    assert names(spec, "h100") == cloud | chart | plugin | {"aws-efa-k8s-device-plugin"}
    # Bottlerocket runs its own device plugin: the chart's skips the pool, NFD does not.
    assert names(spec, "br") == cloud | chart


def test_eks_without_dcgm_metrics(tmp_path: Path) -> None:
    patch = (("    dcgm_exporter: true\n", "    dcgm_exporter: false\n"),)
    spec = dev(project(tmp_path, patch, example="eks-l4-vllm"))
    assert "dcgm-exporter" not in names(spec, "l4-shared")
    assert "node-feature-discovery-worker" in names(spec, "l4-shared")


def test_aks_has_no_kube_proxy_and_no_files_driver(tmp_path: Path) -> None:
    spec = dev(project(tmp_path, example="aks-a100-vllm"))
    found = names(spec, "a100mig")
    assert "kube-proxy" not in found  # Cilium's data plane balances services
    assert "csi-azurefile-node" not in found  # the module turns the Files driver off
    assert {"cilium", "azure-cns", "cloud-node-manager", "csi-blob-node"} <= found
