"""A workload's plan on a cluster: resources, weights, placement, standby clusters."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.spec.load import load_project
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run


def example(tmp_path: Path, name: str, env: str = "prod"):  # type: ignore[no-untyped-def]
    assert run("init", "--example", name, tmp_path).exit_code == 0
    spec = load_project(tmp_path, [env]).envs[env].spec
    return spec


def test_l4_time_sliced_replica_gets_half_a_node(tmp_path: Path) -> None:
    spec = example(tmp_path, "gke-l4-vllm")
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    # g2-standard-8: 8 vCPU, 32 GiB; two clients per GPU -> half a node each.
    # See tests/workload/test_allocatable.py for the arithmetic.
    assert (plan.cpu, plan.memory) == ("3490m", "12625Mi")
    assert plan.pools == ("l4-shared",)
    assert plan.tolerations == (
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
    )
    assert plan.weights.mode == "copy"
    assert plan.weights.init_command == (
        "gcloud",
        "storage",
        "rsync",
        "--recursive",
        "gs://acme-models/meta-llama/Llama-3.2-3B-Instruct",
        "/models/Llama-3.2-3B-Instruct",
    )
    assert plan.weights.size_limit == "9Gi"
    assert plan.grace_seconds == 15 + 120
    # prod keeps 2 replicas warm and scales to 16 on the queue, read from Google Managed
    # Prometheus with the KEDA operator's Workload Identity.
    assert plan.autoscale == "keda"
    assert (plan.replicas_min, plan.replicas_max) == (2, 16)
    scaler = plan.scaler
    assert scaler is not None and scaler.http is None and scaler.queue is not None
    assert (scaler.min_replicas, scaler.max_replicas) == (2, 16)
    assert scaler.queue.query == 'sum(vllm:num_requests_waiting{namespace="chat"})'
    assert scaler.queue.auth_provider == "gcp"
    assert scaler.queue.address == (
        "https://monitoring.googleapis.com/v1/projects/acme-inference-prod/location/global/prometheus"
    )
    # Scale-out: node start 600 s + pull 240 s + copy + load 17 s (6.5 GB at 400 MB/s);
    # scale-down waits at least that long, so no oscillation pays for a cold start.
    # The copy of 6.5 GB goes through the 200 GB pd-balanced boot disk: 140 MiB/s baseline
    # (unverified) + 0.28 MiB/s per GiB x 200 = 196 MiB/s = 205.5 MB/s, shared by the 2 replicas
    # a node starts: 102.8 MB/s -> 64 s.
    assert scaler.scale_out_seconds == 600 + 240 + 64 + 17
    assert scaler.behavior.down_window_seconds == scaler.scale_out_seconds


def test_dev_scales_to_zero(tmp_path: Path) -> None:
    spec = example(tmp_path, "gke-l4-vllm", "dev")
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert plan.autoscale == "keda"
    assert plan.replicas_min == 0


def test_mig_workload_prefers_on_demand_then_spot_and_mounts_with_gcsfuse(tmp_path: Path) -> None:
    spec = example(tmp_path, "gke-h100-mig")
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert plan.pools == ("h100-mig", "h100-mig-spot")
    assert plan.weights.mode == "gcsfuse"
    assert plan.weights.bucket == "acme-models"
    assert plan.weights.mount_options is not None
    assert "only-dir=Qwen/Qwen2.5-Coder-14B-Instruct" in plan.weights.mount_options
    assert plan.weights.size_limit is None
    # a3-highgpu-8g: 8 GPUs x 2 instances of 3g.40gb = 16 slots; 2 + 2 nodes at prod max.
    assert plan.rollout.capacity_replicas == 4 * 16


@pytest.mark.parametrize(
    ("example", "source", "image_part", "command_start"),
    [
        # s3:// weights on GKE are refused (no identity could read them): EKS reads them.
        (
            "eks-l4-vllm",
            "s3://bucket/org/model",
            "aws-cli",
            ("aws", "s3", "sync", "--only-show-errors", "s3://bucket/org/model", "/models/model"),
        ),
        ("gke-l4-vllm", "hf://org/model", "vllm", ("huggingface-cli", "download", "org/model")),
        ("gke-l4-vllm", "https://host/x/model.gguf", "curl", ("curl", "--fail")),
    ],
)
def test_copier_per_source(
    tmp_path: Path, example: str, source: str, image_part: str, command_start: tuple[str, ...]
) -> None:
    assert run("init", "--example", example, tmp_path).exit_code == 0
    spec_file = tmp_path / "gpuplat.yaml"
    text = spec_file.read_text()
    scheme = "s3" if example.startswith("eks") else "gs"
    old = f"{scheme}://acme-models/meta-llama/Llama-3.2-3B-Instruct"
    assert old in text
    spec_file.write_text(text.replace(old, source))
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert plan.weights.init_image is not None and image_part in plan.weights.init_image
    assert plan.weights.init_command[: len(command_start)] == command_start


def test_standby_cluster_has_no_replicas(tmp_path: Path) -> None:
    assert run("init", tmp_path).exit_code == 0
    spec_file = tmp_path / "gpuplat.yaml"
    text = spec_file.read_text()
    cluster = text[text.index("  - name: inference-us") : text.index("addons:")]
    second = cluster.replace("inference-us", "inference-eu").replace("us-central1", "europe-west4")
    second = second.replace("europe-west4-a, europe-west4-c", "europe-west4-a, europe-west4-b")
    text = text.replace("addons:", second + "addons:").replace(
        "clusters: [inference-us]", "clusters: [inference-us, inference-eu]"
    )
    spec_file.write_text(text)
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    eu = next(c for c in spec.clusters if c.name == "inference-eu")
    plan = plan_workload(spec, spec.workloads[0], eu)
    assert not plan.primary
    assert (plan.replicas_min, plan.replicas_max) == (0, 0)


@pytest.mark.parametrize("mount", ["copy", "gcsfuse"])
def test_one_model_path_whether_copied_or_mounted(tmp_path: Path, mount: str) -> None:
    """gs://acme-models/Qwen/Qwen2.5-Coder-14B-Instruct is at /models/Qwen2.5-Coder-14B-Instruct."""
    assert run("init", "--example", "gke-h100-mig", tmp_path).exit_code == 0
    spec_file = tmp_path / "gpuplat.yaml"
    spec_file.write_text(spec_file.read_text().replace("mount: gcsfuse", f"mount: {mount}"))
    spec = load_project(tmp_path, ["dev"]).envs["dev"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    where = "/models/Qwen2.5-Coder-14B-Instruct"
    assert plan.weights.model_path == where
    assert plan.args[0] == f"--model={where}"  # the example says --model={model_path}
    assert ("MODEL_PATH", where) in {(v.name, v.value) for v in plan.env}
    if mount == "copy":
        # An emptyDir at /models; the init container copies into the model path.
        assert plan.weights.mount_path == "/models"
        assert plan.weights.init_command[-1] == where
    else:
        # The bucket folder itself is mounted at the model path.
        assert plan.weights.mount_path == where
        assert plan.weights.only_dir == "Qwen/Qwen2.5-Coder-14B-Instruct"
