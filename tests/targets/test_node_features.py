"""What each target says every node has on is what gpuplat's modules really turn on.

The account of a node's DaemonSets (catalog daemonsets.yaml) is selected by these features; a
module that stopped enabling Dataplane V2 or added the EBS CSI driver without the target saying
so would count the wrong pods. Read from the module templates and the infra roots that call
them (the roots set none of these inputs, so the modules' defaults hold).
"""

from __future__ import annotations

import re
from pathlib import Path

from gpuplat.targets.aks import node as aks_node
from gpuplat.targets.eks import node as eks_node
from gpuplat.targets.gke import node as gke_node

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def text(module: str, name: str = "main.tf.j2") -> str:
    return " ".join((TEMPLATES / "modules" / module / name).read_text(encoding="utf-8").split())


def default_of(module: str, variable: str) -> str:
    found = re.search(
        rf'variable "{variable}" {{.*?default = (.+?) }}', text(module, "variables.tf.j2")
    )
    assert found is not None, variable
    return found.group(1)


def roots_leave_alone(*inputs: str) -> None:
    for root in (TEMPLATES / "roots").rglob("*.j2"):
        body = root.read_text(encoding="utf-8")
        for name in inputs:
            assert not re.search(rf"\b{name}\s*=", body), (root, name)


def test_gke_features_of_every_node() -> None:
    cluster, pool = text("gke-cluster"), text("gke-gpu-node-pool")
    assert 'datapath_provider = "ADVANCED_DATAPATH"' in cluster
    assert 'workload_metadata_config { mode = "GKE_METADATA" }' in pool
    assert 'logging_config { enable_components = ["SYSTEM_COMPONENTS", "WORKLOADS"] }' in cluster
    # DCGM follows dcgm_metrics (addons.metrics.dcgm_exporter, when GKE exports the metrics).
    assert (
        'enable_components = concat(["SYSTEM_COMPONENTS"], var.dcgm_metrics ? ["DCGM"] : []) '
        "managed_prometheus { enabled = true }" in cluster
    )
    assert "gce_persistent_disk_csi_driver_config { enabled = true }" in cluster
    assert "gcs_fuse_csi_driver_config { enabled = var.gcs_fuse_csi_driver }" in cluster
    assert default_of("gke-cluster", "gcs_fuse_csi_driver") == "true"
    roots_leave_alone("gcs_fuse_csi_driver")
    assert {
        "gke_dataplane_v2",
        "gke_workload_identity",
        "gke_logging",
        "gke_system_metrics",
        "gke_managed_prometheus",
        "gcs_fuse_csi",
        "gce_pd_csi",
    } == gke_node.MODULE_FEATURES


def test_eks_features_of_every_node() -> None:
    addons = default_of("eks-cluster", "addons")
    named = set(re.findall(r"([a-z-]+) = \{\}", addons))
    assert named == {"coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni"}
    roots_leave_alone("addons")
    # CoreDNS is a Deployment; the other three have a pod on every node. No EBS CSI driver.
    assert {"vpc_cni", "eks_kube_proxy", "eks_pod_identity"} == eks_node.MODULE_FEATURES


def test_aks_features_of_every_node() -> None:
    cluster = text("aks-cluster")
    assert 'network_plugin = "azure" network_plugin_mode = "overlay"' in cluster
    assert 'network_data_plane = "cilium"' in cluster
    assert (
        "storage_profile { blob_driver_enabled = var.blob_driver disk_driver_enabled = true "
        "file_driver_enabled = false }" in cluster
    )
    assert default_of("aks-cluster", "blob_driver") == "true"
    roots_leave_alone("blob_driver")
    # No ama-* pods unless managed Prometheus is chosen (managed_prometheus, off by default).
    assert "oms_agent" not in cluster and 'dynamic "monitor_metrics"' in cluster
    assert default_of("aks-cluster", "managed_prometheus") == "false"
    assert {
        "azure_cni_overlay",
        "aks_cilium_dataplane",
        "azure_disk_csi",
        "azure_blob_csi",
    } == aks_node.MODULE_FEATURES
