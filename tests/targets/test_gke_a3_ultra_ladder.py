"""The A3 Ultra ladder walk: a reservation, flex-start for 7 days, flex-start for 1 day, then spot,
capped at 2 nodes of a3-ultragpu-8g (8 H200 each), caching the weights on the 32 local SSDs.

Read against the sources, each rendered value must hold:

- ComputeClass (GKE ComputeClass reference; the vendored CRDs, CEL rules included): one rule per
  rung, each naming exactly one node pool and nothing beside it ("Nodepool field cannot be set
  along with other nodepool configuration fields"), in the ladder's order;
  ``whenUnsatisfiable: DoNotScaleUp`` so no pool outside the class is scaled.
- Node pools (google provider ``resource_container_node_pool.go`` / ``node_config.go``, GKE
  "flex-start" guide): the reservation rung consumes ``SPECIFIC_RESERVATION`` of the named
  reservation; the flex-start rungs set ``flex_start``, their ``max_run_duration`` (7 d =
  604800 s, 1 d = 86400 s, GKE's longest being 7 days), no reservation (``NO_RESERVATION``), no
  auto-repair and no SURGE settings (GKE upgrades them SHORT_LIVED); the spot rung sets
  ``spot``; every rung boots from Hyperdisk (A3 Ultra has no Persistent Disk) and puts
  ephemeral storage on its 32 local SSDs (cluster-toolkit's gke-node-pool default for
  a3-ultragpu-8g) and preloads the serving image from a secondary boot disk
  (``node_config.secondary_boot_disks``, mode ``CONTAINER_IMAGE_CACHE``); every rung may alone hold the whole cap (max 2 nodes) and starts empty.
- Serving: the pods select the class and tolerate its taint, and a ResourceQuota holds them to
  the cap in GPUs: 2 nodes x 8 = 16.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat import crds
from tests.fidelity.test_offline_plan import _plan
from tests.support.cli import run
from tests.support.hclread import modules

SPEC = """\
version: 1
project: ultra
clusters:
  - name: h200-us
    cloud: gke
    region: us-central1
    zones: [us-central1-b]
    kubernetes:
      version: "1.35"
    gcp:
      project: demo-project-1
    node_pools:
      - name: h200
        machine_type: a3-ultragpu-8g
        capacity:
          - reservation: h200-reserved
          - flex-start: {max_run_duration: 7d}
          - flex-start: {max_run_duration: 1d}
          - spot
        autoscaling:
          min_nodes: 0
          max_nodes: 2
        disk:
          local_ssd_count: 32
        secondary_boot_disks:
          - disk_image: projects/demo-project-1/global/images/vllm-openai-v0-11-0
workloads:
  - name: big
    image: vllm/vllm-openai:v0.11.0
    model:
      source: gs://acme-models/meta/Llama-3.3-70B-Instruct
      size_gb: 141
      mount: gcsfuse
      load_bandwidth_mbps: 1500
    gpus: 8
    pool: h200
    replicas: {min: 1, max: 2}
    load_time_budget: 30m
    clusters: [h200-us]
environments:
  - name: dev
    backend: {type: gcs, bucket: ultra-tfstate}
"""

CLASS = "cloud.google.com/compute-class"
IMAGE = "projects/demo-project-1/global/images/vllm-openai-v0-11-0"
RUNGS = ("h200-res", "h200-flex", "h200-flex2", "h200-spot")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("a3-ultra")
    (folder / "gpuplat.yaml").write_text(SPEC, encoding="utf-8")
    checked = run("validate", "--strict", cwd=folder)
    assert checked.exit_code == 0, checked.stderr
    rendered = run("render", cwd=folder)
    assert rendered.exit_code == 0, rendered.stderr
    return folder / "envs" / "dev" / "h200-us"


def test_the_class_climbs_the_four_rungs_in_order_and_passes_every_crd(root: Path) -> None:
    platform = next(iter(modules(root / "platform" / "main.tf").values()))
    (cls,) = platform["compute_classes"]
    spec = cls["spec"]
    assert [rule["nodepools"] for rule in spec["priorities"]] == [[r] for r in RUNGS]
    assert all(list(rule) == ["nodepools"] for rule in spec["priorities"])
    assert spec["whenUnsatisfiable"] == "DoNotScaleUp"
    unbound = {**cls, "metadata": {"name": cls["metadata"]["name"]}}
    result = crds.Result()
    assert crds.check_object(unbound, result) == []
    releases = {release for _, _, release in result.coverage.tallies} - {"documented"}
    assert releases == {d.release for d in crds.lookup("cloud.google.com/v1", "ComputeClass")}


def test_each_rung_is_the_pool_it_says(root: Path) -> None:
    infra = modules(root / "infra" / "main.tf")
    pools = {b["name"]: b for n, b in infra.items() if n.startswith("pool_")}
    assert sorted(pools) == sorted(RUNGS)
    assert all(len(name) <= 40 for name in pools)
    capacity = {name: pools[name]["capacity"] for name in RUNGS}
    assert capacity["h200-res"] == {"reservation": "h200-reserved", "type": "RESERVATION"}
    assert capacity["h200-flex"] == {"max_run_duration": "604800s", "type": "FLEX_START"}
    assert capacity["h200-flex2"] == {"max_run_duration": "86400s", "type": "FLEX_START"}
    assert capacity["h200-spot"] == {"type": "SPOT"}
    for name in RUNGS:
        body = pools[name]
        assert body["disk"] == {"local_ssd_count": 32, "size_gb": 200, "type": "hyperdisk-balanced"}
        assert (body["autoscaling"]["min_nodes"], body["autoscaling"]["max_nodes"]) == (0, 2)
        assert body["labels"][CLASS] == "gpuplat-h200"
        assert body["secondary_boot_disks"] == [
            {"disk_image": IMAGE, "mode": "CONTAINER_IMAGE_CACHE"}
        ]


def test_the_pods_select_the_class_and_are_held_to_sixteen_gpus(root: Path) -> None:
    server = next(m for m in modules(root / "serving" / "main.tf").values() if "placement" in m)
    placement = server["placement"]
    assert placement["node_selector"] == {CLASS: "gpuplat-h200"}
    taint = {"key": CLASS, "operator": "Equal", "value": "gpuplat-h200", "effect": "NoSchedule"}
    assert taint in placement["tolerations"]
    assert server["gpu_quota"] == 16


@pytest.mark.terraform
def test_terraform_plans_each_rung_as_gke_expects(root: Path) -> None:
    planned = _plan(root / "infra")
    pools = {
        values["name"]: values
        for address, values in planned.items()
        if address.endswith("google_container_node_pool.this")
    }
    assert sorted(pools) == sorted(RUNGS)
    for name, pool in pools.items():
        (config,) = pool["node_config"]
        (local,) = config["ephemeral_storage_local_ssd_config"]
        assert local["local_ssd_count"] == 32
        assert config["disk_type"] == "hyperdisk-balanced"
        # The serving image preloaded: containerd starts it from the disk, without a pull.
        assert config["secondary_boot_disks"] == [
            {"disk_image": IMAGE, "mode": "CONTAINER_IMAGE_CACHE"}
        ]
        assert pool["initial_node_count"] == 0
        (affinity,) = config["reservation_affinity"] or [{"consume_reservation_type": None}]
        (management,) = pool["management"]
        if name == "h200-res":
            assert affinity["consume_reservation_type"] == "SPECIFIC_RESERVATION"
            assert affinity["values"] == ["h200-reserved"]
        if name != "h200-res":
            # Scarce capacity: take it in whichever zone has it (GKE location policy ANY).
            assert pool["autoscaling"][0]["location_policy"] == "ANY"
        if name.startswith("h200-flex"):
            assert config["flex_start"] is True
            assert affinity["consume_reservation_type"] == "NO_RESERVATION"
            assert management["auto_repair"] is False
            assert pool["upgrade_settings"] == []
        if name == "h200-spot":
            assert config["spot"] is True
            assert management["auto_repair"] is True
    flex = {pools[n]["node_config"][0]["max_run_duration"] for n in ("h200-flex", "h200-flex2")}
    assert flex == {"604800s", "86400s"}
