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

    The shipped prod runs a fixed 2 replicas on one node (GKE gets no HPA on a server metric
    yet); cost arithmetic is clearer with a ceiling above the floor. Replicas stay at min on
    the cluster; the ceiling is what the pool may cost.
    """
    overlay = root / "envs" / "prod.yaml"
    text = overlay.read_text(encoding="utf-8")
    for old, new in (
        ("          max_nodes: 1\n", "          max_nodes: 8\n"),
        ("      min: 2\n      max: 2\n", "      min: 2\n      max: 16\n"),
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
