"""Copied weights must not pin a GPU node: the cluster autoscaler's safe-to-evict-local-volumes.

The cluster autoscaler keeps a node whose pods hold a disk-backed emptyDir
(``--skip-nodes-with-local-storage`` defaults to true; the EKS chart keeps the default) unless
each such pod names the volume in ``cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes``
(CA 1.27+, kubernetes/autoscaler#5594). A memory-backed emptyDir (dshm) no longer blocks since
CA 1.27 (#5551). Nothing here runs an autoscaler: the test holds the rendered annotation and the
volume it names together, which is what the autoscaler reads.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.manifests.objects import serving_objects
from gpuplat.spec.load import load_project
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run

SAFE_TO_EVICT_LOCAL_VOLUMES = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"


def _plan(tmp_path: Path, example: str, edit: tuple[str, str] | None = None):  # type: ignore[no-untyped-def]
    assert run("init", "--example", example, tmp_path).exit_code == 0
    if edit is not None:
        spec_file = tmp_path / "gpuplat.yaml"
        text = spec_file.read_text()
        assert edit[0] in text
        spec_file.write_text(text.replace(edit[0], edit[1]))
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    return plan_workload(spec, spec.workloads[0], spec.clusters[0])


def _deployment_pod(plan):  # type: ignore[no-untyped-def]
    deploy = next(o for o in serving_objects(plan) if o["kind"] == "Deployment")
    return deploy["spec"]["template"]


def test_eks_copied_weights_are_safe_to_evict(tmp_path: Path) -> None:
    plan = _plan(tmp_path, "eks-l4-vllm")
    assert plan.weights.mode == "copy"
    pod = _deployment_pod(plan)
    named = pod["metadata"]["annotations"][SAFE_TO_EVICT_LOCAL_VOLUMES]
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    # The one disk-backed emptyDir is the one the annotation names.
    disk_backed = [
        n for n, v in volumes.items() if "emptyDir" in v and "medium" not in v["emptyDir"]
    ]
    assert disk_backed == [named] == ["weights"]


def test_aks_copied_weights_are_safe_to_evict(tmp_path: Path) -> None:
    plan = _plan(tmp_path, "aks-a100-vllm", ("mount: blobfuse", "mount: copy"))
    assert plan.weights.mode == "copy"
    assert plan.pod_annotations[SAFE_TO_EVICT_LOCAL_VOLUMES] == "weights"


def test_aks_mounted_weights_need_no_annotation(tmp_path: Path) -> None:
    plan = _plan(tmp_path, "aks-a100-vllm")
    assert plan.weights.mode == "blobfuse"
    assert SAFE_TO_EVICT_LOCAL_VOLUMES not in plan.pod_annotations


def test_gke_autoscaler_does_not_count_local_storage(tmp_path: Path) -> None:
    """GKE's autoscaler stopped counting local storage as a scale-down blocker in 1.22."""
    plan = _plan(tmp_path, "gke-l4-vllm")
    assert plan.weights.mode == "copy"
    assert SAFE_TO_EVICT_LOCAL_VOLUMES not in plan.pod_annotations
