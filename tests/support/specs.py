"""Spec variants for tests that need what no shipped example has (DRA, GPU Operator, ...)."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run

DRA_CLUSTER_PATCH = (
    (
        "    kubernetes:\n      release_channel: REGULAR\n",
        '    kubernetes:\n      release_channel: RAPID\n      version: "1.35"\n',
    ),
    (
        "        driver:\n          install: managed\n          version: LATEST\n",
        "        driver:\n          install: none\n        image: UBUNTU_CONTAINERD\n",
    ),
    ("  device_plugin: auto # GKE's managed device plugin\n", "  device_plugin: dra\n"),
    # GKE's DRA shares no GPU (no MIG, time-sharing or MPS): one server per L4, on nodes of
    # two L4s so that a node still holds two servers.
    (
        "        sharing:\n          mode: time-slicing # two servers take turns on each L4\n"
        "          max_clients: 2\n",
        "",
    ),
    (
        "        machine_type: g2-standard-8 # 1x NVIDIA L4 (24 GB), 8 vCPU, 32 GiB\n",
        "        machine_type: g2-standard-24\n",
    ),
)
OPERATOR_PATCH = (
    ("  device_plugin: auto # GKE's managed device plugin\n", "  device_plugin: gpu-operator\n"),
    ("          mode: time-slicing # two servers take turns on each L4\n", "          mode: mps\n"),
)

POD_PATCH = (
    (
        "    port: 8000\n",
        "    port: 8000\n"
        "    env:\n"
        "      HF_TOKEN: {secret: hf-token, key: token}\n"
        "      SETTINGS: {config_map: chat-settings, key: settings.json, optional: true}\n"
        "      VLLM_LOGGING_LEVEL: INFO\n"
        "    pod_labels:\n"
        "      cost-center: ml-platform\n"
        "    pod_annotations:\n"
        "      example.com/owner: ml-team\n",
    ),
)
"""Environment values from a Secret and a ConfigMap key, extra pod labels and annotations."""

FUSE_PREFETCH_PATCH = (
    (
        "      load_bandwidth_mbps: 800\n",
        "      load_bandwidth_mbps: 800\n      fuse_prefetch: true\n",
    ),
)
"""gke-h100-mig's Cloud Storage FUSE weights read once by an init container before the server."""

GKE_LADDER_PATCH = (
    (
        "        capacity:\n          type: spot\n",
        "        capacity:\n"
        "          - reservation: l4-reserved\n"
        "            zones: [us-central1-a]\n"
        "          - on-demand\n"
        "          - flex-start: {max_run_duration: 2d}\n"
        "          - spot\n",
    ),
    ("      release_channel: REGULAR\n", '      release_channel: REGULAR\n      version: "1.35"\n'),
)
"""The example's pool as a capacity ladder: reservation, on-demand, flex-start, spot."""

AKS_RESERVATION_GROUP = (
    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/acme-inference-dev/"
    "providers/Microsoft.Compute/capacityReservationGroups/a100-eus"
)
AKS_LADDER_PATCH = (
    (
        "        capacity:\n"
        "          type: spot # evicted when Azure needs the capacity; AKS taints these nodes for it\n",
        "        capacity:\n"
        f"          - reservation: {AKS_RESERVATION_GROUP}\n"
        "          - on-demand\n"
        "          - spot: {max_price: 3.5}\n",
    ),
)
"""The aks-a100-vllm example's pool as a capacity ladder: reservation group, regular, Spot
(evicted above 3.50 USD an hour)."""


def scaled_prod(root: Path) -> Path:
    """Size prod of the gke-l4-vllm example for 2..16 replicas on 1..8 nodes.

    The shipped prod already does (KEDA on the server's queue); older overlays are widened so
    cost arithmetic has a ceiling above the floor. The ceiling is what the pool may cost.
    """
    overlay = root / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    if "          max_nodes: 8" in text and "      max: 16\n" in text:
        return root  # the shipped prod already scales 2..16 replicas on 2..8 nodes
    for old, new in (
        (
            "          min_nodes: 2\n          max_nodes: 2\n",
            "          min_nodes: 1\n          max_nodes: 8\n",
        ),
        ("      min: 4\n      max: 4\n", "      min: 2\n      max: 16\n"),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    overlay.write_text(text, encoding="utf-8")
    return root


def project(
    tmp_path: Path, patches: tuple[tuple[str, str], ...] = (), example: str = "gke-l4-vllm"
) -> Path:
    """Init an example into ``tmp_path`` and apply text patches to its gpuplat.yaml."""
    assert run("init", "--example", example, tmp_path).exit_code == 0
    spec = tmp_path / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in patches:
        assert old in text, old
        text = text.replace(old, new)
    spec.write_text(text, encoding="utf-8")
    return tmp_path


H200_SPEC = """\
version: 1
project: acme-h200
clusters:
  - name: h200-central
    cloud: gke
    region: us-central1
    zones: [us-central1-a]
    kubernetes:
      release_channel: REGULAR
      version: "1.35"
    gcp:
      project: acme-h200
    node_pools:
      - name: h200
        machine_type: a3-ultragpu-8g
        capacity:
          - reservation: h200-reserved
          - flex-start: {max_run_duration: 7d}
          - spot
        autoscaling:
          min_nodes: 0
          max_nodes: 2
        disk:
          size_gb: 1000
          type: hyperdisk-balanced
workloads:
  - name: llama
    image: vllm/vllm-openai:v0.11.0
    args: ["--model={model_path}", "--tensor-parallel-size=8"]
    model:
      source: gs://acme-models/meta-llama/Llama-3.1-405B-Instruct-FP8
      size_gb: 410
      mount: gcsfuse
      load_bandwidth_mbps: 2000
    gpus: 8
    pool: h200
    replicas:
      min: 1
      max: 2
    load_time_budget: 30m
    clusters: [h200-central]
environments:
  - name: dev
"""
"""A whole-node H200 server on GKE (a3-ultragpu-8g: 8 GPUs, 224 vCPU, 2952 GiB) climbing a
reservation, flex-start, spot ladder, with its weights mounted by Cloud Storage FUSE."""


def h200_project(tmp_path: Path, text: str = H200_SPEC) -> Path:
    """Write the H200 spec (or a variant of it) as a project in ``tmp_path``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    return tmp_path
