"""Worked examples of the rollout decision and of the capacity it is computed from."""

from __future__ import annotations

from pathlib import Path

from gpuplat.spec.load import load_project
from gpuplat.workload.capacity import left_for, placeable
from gpuplat.workload.rollout import rollout, running_at_rollout
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run


def test_full_pool_gets_no_surge() -> None:
    # 2 nodes x 8 GPUs hold 4 replicas of 4 GPUs; with 4 running there is no room for a fifth.
    decision = rollout(fits=4, gpus_per_replica=4, max_replicas=4, capacity_text="pool a")
    assert (decision.max_surge, decision.max_unavailable) == (0, 1)
    assert decision.capacity_replicas == 4
    assert "maxSurge 0, maxUnavailable 1" in decision.reason


def test_room_for_one_more_replica_surges() -> None:
    decision = rollout(fits=6, gpus_per_replica=4, max_replicas=4, capacity_text="pool a")
    assert (decision.max_surge, decision.max_unavailable) == (1, 0)


def test_exactly_one_spare_replica_is_enough() -> None:
    assert rollout(fits=5, gpus_per_replica=1, max_replicas=4, capacity_text="a").max_surge == 1


SHARED = """\
version: 1
project: demo
clusters:
  - name: gpu
    cloud: gke
    region: us-central1
    zones: [us-central1-a]
    gcp:
      project: demo-project-1
    node_pools:
      - name: a100
        machine_type: a2-highgpu-8g # a 1000 GB disk holds the replicas' FUSE caches
        disk: {size_gb: 1000}
        autoscaling: {min_nodes: 0, max_nodes: 2}
        sharing: {mode: mig, profile: 3g.20gb}
      - name: a100-spot
        machine_type: a2-highgpu-2g
        capacity: {type: spot}
        autoscaling: {min_nodes: 0, max_nodes: 1}
workloads:
  - name: big
    image: vllm/vllm-openai:v0.11.0
    model: {source: gs://m/big, size_gb: 30, mount: gcsfuse}
    gpus: 3
    pool: a100
    replicas: {min: 0, max: 4}
    scale_to_zero: true
    clusters: [gpu]
  - name: small
    image: vllm/vllm-openai:v0.11.0
    model: {source: gs://m/small, size_gb: 5, mount: gcsfuse}
    accelerator: A100-40GB
    replicas: {min: 0, max: MAX}
    scale_to_zero: true
    clusters: [gpu]
environments:
  - name: dev
"""


def shared(tmp_path: Path, small_max: int):  # type: ignore[no-untyped-def]
    (tmp_path / "gpuplat.yaml").write_text(SHARED.replace("MAX", str(small_max)))
    return load_project(tmp_path, ["dev"]).envs["dev"].spec


def test_stranded_units_do_not_count(tmp_path: Path) -> None:
    # a2-highgpu-8g: 8 A100s x 2 instances of 3g.20gb = 16 MIG units per node. A replica of 3
    # takes one node slot of 3: 16 // 3 = 5 per node (1 unit stranded), 2 nodes = 10 replicas,
    # not 32 // 3 = 10.67.
    spec = shared(tmp_path, 1)
    cluster = spec.clusters[0]
    assert placeable(cluster, [cluster.node_pools[0]], 3) == 10


def test_surge_counts_what_the_others_may_take(tmp_path: Path) -> None:
    # "small" (1 unit) may run on both pools: a100 (2 nodes x 16 MIG units = 32) and a100-spot
    # (1 node x 2 whole GPUs = 2). With small at max 20 it may take 20 of a100's 32 units, so
    # "big" (3 units) can count on 32 - 20 = 12 units = 4 replicas: exactly its max, no spare.
    spec = shared(tmp_path, 20)
    cluster = spec.clusters[0]
    fits, text = left_for(spec, spec.workloads[0], cluster)
    assert fits == 12 // 3 == 4
    assert "less 20 GPU units other workloads may take" in text
    big = plan_workload(spec, spec.workloads[0], cluster)
    assert (big.rollout.max_surge, big.rollout.max_unavailable) == (0, 1)
    # With small at max 8, big can count on 32 - 8 = 24 units = 8 replicas: it may surge.
    spec = shared(tmp_path, 8)
    assert plan_workload(spec, spec.workloads[0], spec.clusters[0]).rollout.max_surge == 1


def test_surge_across_several_pools_counts_only_placeable_replicas(tmp_path: Path) -> None:
    # "small" may use a100 (32 slots) and a100-spot (2 GPUs): 34 replicas of 1 unit, less the
    # 4 x 3 = 12 units big may take on a100 (the only pool both use): 22.
    spec = shared(tmp_path, 21)
    fits, _ = left_for(spec, spec.workloads[1], spec.clusters[0])
    assert fits == 34 - 12 == 22
    assert plan_workload(spec, spec.workloads[1], spec.clusters[0]).rollout.max_surge == 1
    spec = shared(tmp_path, 22)
    assert plan_workload(spec, spec.workloads[1], spec.clusters[0]).rollout.max_surge == 0


def test_over_subscribed_shared_pools_are_refused(tmp_path: Path) -> None:
    # big 4 x 3 = 12 units + small 23 units = 35 > 34 units the two pools hold at max_nodes.
    (tmp_path / "gpuplat.yaml").write_text(SHARED.replace("MAX", "23"))
    result = run("validate", cwd=tmp_path)
    assert result.exit_code == 4
    assert (
        'Error: workloads big, small may take 35 GPU units of cluster "gpu" at their '
        "replicas.max; pools a100, a100-spot hold 34 at max_nodes\n"
        "  gpuplat.yaml:33:29  workloads[1].replicas.max\n"
        "  big: 4 replicas x 3 GPU unit(s) = 12 on a100\n"
        "  small: 23 replicas x 1 GPU unit(s) = 23 on a100, a100-spot\n"
    ) in result.stderr
    (tmp_path / "gpuplat.yaml").write_text(SHARED.replace("MAX", "22"))
    assert run("validate", cwd=tmp_path).exit_code == 0


def test_fixed_replica_surges_when_its_fixed_count_leaves_room(tmp_path: Path) -> None:
    """Without a metric nothing scales "big" past replicas.min (1): with small at max 20, big can
    count on 32 - 20 = 12 units = 4 replicas, so with 1 running a second one fits and a rollout
    must not take the only replica down (it did when the decision counted replicas.max 4)."""
    (tmp_path / "gpuplat.yaml").write_text(
        SHARED.replace("MAX", "20").replace(
            "    replicas: {min: 0, max: 4}\n    scale_to_zero: true\n",
            "    replicas: {min: 1, max: 4}\n",
        )
    )
    spec = load_project(tmp_path, ["dev"]).envs["dev"].spec
    assert not spec.workloads[0].scale_to_zero
    big = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    assert (big.rollout.max_surge, big.rollout.max_unavailable) == (1, 0)
    assert "with 1 running (fixed: no autoscaler) one more fits" in big.rollout.reason
    # Scaled by KEDA the same workload may be at 4 when the rollout starts: no surge.
    spec = shared(tmp_path, 20)
    assert plan_workload(spec, spec.workloads[0], spec.clusters[0]).rollout.max_surge == 0


def test_running_at_rollout_counts_the_fixed_count() -> None:
    assert running_at_rollout(1, 2, scaled=False) == 1
    assert running_at_rollout(1, 2, scaled=True) == 2
    assert running_at_rollout(0, 0, scaled=False) == 1
