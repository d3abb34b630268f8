"""Cloud Storage FUSE file caches of the replicas a node starts at once share its disk.

Worked example, to redo by hand: 16 replicas of a 29.6 GB model on one a3-highgpu-8g (8 H100
split into 3g.40gb MIG instances: 16 per node), load_bandwidth_mbps 800, image pull 3 min,
load_time_budget 15 min.

- On a 1000 GB pd-ssd boot disk: pd-ssd writes a 240 MiB/s baseline (unverified) + 0.48 MiB/s
  per GiB (Compute "About Persistent Disk performance", zonal throughput limits) = 720 MiB/s
  (under the 1200 MiB/s instance cap) = 755.0 MB/s, shared by the 16 caches filling at once:
  47.19 MB/s each. 29.6 GB at 47.19 MB/s is 628 s, not the 37 s that 800 MB/s alone gives; the
  startup probe allows 72 x 10 s = 720 s (the window's floor) and the progress deadline is 600
  (new node) + 180 (pull) + 720 = 1500 s.
- On the 16 local SSDs the machine comes with (``disk.local_ssd_count: 16``, GKE's
  ``ephemeral_storage_local_ssd_config``): the caches leave the boot disk, striped over 16 NVMe
  SSDs at 350 MiB/s each (unverified) = 5600 MiB/s = 5872 MB/s / 16 = 367 MB/s each, below the
  network's 800: 29.6 GB in 81 s. The caches' room is 16 x 375 GB = 6000 GB less GKE's reserve
  (10 % + 100 GB) = 5300 GB.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.spec.load import load_project
from gpuplat.targets import target
from gpuplat.workload.serving import plan_workload

SPEC = """\
version: 1
project: demo
clusters:
  - name: gpu-us
    cloud: gke
    region: us-central1
    zones: [us-central1-a]
    gcp:
      project: demo-project-1
    node_pools:
      - name: h100
        machine_type: a3-highgpu-8g
        sharing:
          mode: mig
          profile: 3g.40gb
        disk:
          size_gb: 1000
          type: pd-ssd{local}
workloads:
  - name: coder
    image: vllm/vllm-openai:v0.11.0
    model:
      source: gs://acme-models/Qwen/Qwen2.5-Coder-14B-Instruct
      size_gb: 29.6
      mount: gcsfuse
      load_bandwidth_mbps: 800
    pool: h100
    replicas:
      min: {replicas}
      max: {replicas}
    load_time_budget: 15m
    clusters: [gpu-us]
environments:
  - name: dev
"""


def _plan(tmp_path: Path, *, local: bool = False, replicas: int = 16):  # type: ignore[no-untyped-def]
    text = SPEC.format(local="\n          local_ssd_count: 16" if local else "", replicas=replicas)
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    spec = load_project(tmp_path, ["dev"]).envs["dev"].spec
    return spec, plan_workload(spec, spec.workloads[0], spec.clusters[0])


def test_caches_filling_together_share_the_boot_disk(tmp_path: Path) -> None:
    _spec, plan = _plan(tmp_path)
    budget = plan.startup
    assert plan.weights.mode == "gcsfuse"
    assert budget.load_seconds == 628  # 29.6 GB at (240 + 480) MiB/s / 16 replicas, rounded up
    assert budget.window_seconds == 720
    assert budget.failure_threshold == 72
    assert budget.progress_deadline_seconds == 600 + 180 + 720


def test_fewer_replicas_share_the_disk_fewer_ways(tmp_path: Path) -> None:
    # 4 replicas at most: a new node starts 4, not the 16 it could hold. 755.0 / 4 = 188.7 MB/s.
    _spec, plan = _plan(tmp_path, replicas=4)
    assert plan.startup.load_seconds == 157  # ceil(29600 / 188.74)


def test_local_ssds_take_the_caches_off_the_boot_disk(tmp_path: Path) -> None:
    spec, plan = _plan(tmp_path, local=True)
    assert plan.startup.load_seconds == 81  # ceil(29600 / (16 x 350 x 1.048576 / 16))
    pool = spec.clusters[0].node_pools[0]
    disk = target("gke").ephemeral_disk(pool)
    assert disk is not None
    assert disk.label == "16 local SSDs (6000 GB)"
    assert disk.allocatable_gb == 6000 - (600 + 100)
    assert target("gke").disk_write_mibps(pool) == 16 * 350


def test_a_small_persistent_disk_writes_at_its_baseline_and_hyperdisk_at_its_default() -> None:
    from gpuplat.spec.model import NodePool

    def rate(disk: dict[str, object], machine: str = "g2-standard-8") -> float | None:
        pool = NodePool.model_validate({"name": "p", "machine_type": machine, "disk": disk})
        return target("gke").disk_write_mibps(pool)

    # 200 GB pd-balanced: 140 + 0.28 x 200 = 196 MiB/s (was 56 without the baseline).
    assert rate({"size_gb": 200, "type": "pd-balanced"}) == 140 + 0.28 * 200
    assert rate({"size_gb": 5000, "type": "pd-ssd"}) == 1200  # the instance's cap
    assert rate({"size_gb": 200, "type": "pd-standard"}) == 0.12 * 200
    assert rate({"size_gb": 500}, "a3-ultragpu-8g") == 290  # hyperdisk-balanced's default
    assert rate({"size_gb": 500, "type": "hyperdisk-ml"}, "a3-ultragpu-8g") is None


def test_the_node_pool_call_asks_for_the_local_ssds(tmp_path: Path) -> None:
    spec, _ = _plan(tmp_path, local=True)
    env = load_project(tmp_path, ["dev"]).envs["dev"]
    view = target("gke").infra(env, spec.clusters[0]).cluster
    (pool,) = view.pools
    assert pool.args["disk"] == {"size_gb": 1000, "type": "pd-ssd", "local_ssd_count": 16}
