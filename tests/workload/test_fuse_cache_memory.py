"""The anchor's serving details: a Cloud Storage FUSE file cache in memory, mount options of the
workload's own, and a Recreate rollout.

The same 16 MIG replicas of tests/workload/test_fuse_cache_disk.py, with ``fuse_cache: memory``
(accelerated-platforms mounts the cache as a RAM disk): each replica's cache, 34 GiB (1.1 x 29.6 GB
+ 1), is the pod volume ``gke-gcsfuse-cache`` (emptyDir, medium Memory, sizeLimit 34Gi), which GKE's
webhook mounts as the sidecar's cache instead of an emptyDir on the node's disk; the pod's fsGroup
is 65534 so the sidecar (which runs as 65534) may write there. The sidecar requests the cache with
its own memory: 256 + 34 x 1024 = 35072 MiB, which the replica's share of the node leaves room
for; nothing goes through the 1000 GB pd-ssd boot disk, so the load is the network's: 37 s.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.manifests.objects import serving_objects
from gpuplat.spec.load import load_project
from gpuplat.workload.quantity import memory_mib
from gpuplat.workload.serving import plan_workload
from tests.workload.test_fuse_cache_disk import SPEC
from tests.workload.test_fuse_cache_disk import _plan as disk_plan

MEMORY = "      mount: gcsfuse\n      fuse_cache: memory\n"


def _plan(tmp_path: Path, extra: str = ""):  # type: ignore[no-untyped-def]
    text = SPEC.format(local="", replicas=16).replace("      mount: gcsfuse\n", MEMORY + extra)
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    spec = load_project(tmp_path, ["dev"]).envs["dev"].spec
    return plan_workload(spec, spec.workloads[0], spec.clusters[0])


def _pod(plan):  # type: ignore[no-untyped-def]
    deploy = next(o for o in serving_objects(plan) if o["kind"] == "Deployment")
    return deploy["spec"]["template"], deploy["spec"]["strategy"]


def test_the_cache_is_a_memory_volume_the_sidecar_requests(tmp_path: Path) -> None:
    plan = _plan(tmp_path)
    template, _strategy = _pod(plan)
    volumes = {v["name"]: v for v in template["spec"]["volumes"]}
    assert volumes["gke-gcsfuse-cache"] == {
        "name": "gke-gcsfuse-cache",
        "emptyDir": {"medium": "Memory", "sizeLimit": "34Gi"},
    }
    assert template["spec"]["securityContext"]["fsGroup"] == 65534
    annotations = template["metadata"]["annotations"]
    assert annotations["gke-gcsfuse/memory-request"] == f"{256 + 34 * 1024}Mi"
    assert not any(k.startswith("gke-gcsfuse/ephemeral-storage") for k in annotations)
    # The cache's bound in the mount options stays 1 GiB under the volume.
    assert "file-cache:max-size-mb:33792" in plan.weights.mount_options
    # Filled at the network's rate: no disk in the way.
    assert plan.startup.load_seconds == 37


def test_the_server_leaves_the_cache_its_memory(tmp_path: Path) -> None:
    (tmp_path / "disk").mkdir()
    (tmp_path / "mem").mkdir()
    _spec, disk = disk_plan(tmp_path / "disk")
    memory = _plan(tmp_path / "mem")
    # The replica's share of the node is the same; the sidecar now holds 34 GiB of it.
    server_disk = memory_mib(disk.memory) or 0
    server_memory = memory_mib(memory.memory) or 0
    assert server_disk - server_memory == 34 * 1024


def test_mount_options_of_the_workload_follow_gpuplats(tmp_path: Path) -> None:
    plan = _plan(tmp_path, "      fuse_mount_options: [max-conns-per-host=500]\n")
    options = plan.weights.mount_options.split(",")
    assert options[-2:] == ["max-conns-per-host=500", "only-dir=Qwen/Qwen2.5-Coder-14B-Instruct"]


def test_recreate_stops_every_old_pod_first(tmp_path: Path) -> None:
    text = SPEC.format(local="", replicas=16).replace(
        "    load_time_budget: 15m\n", "    load_time_budget: 15m\n    rollout_strategy: recreate\n"
    )
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    spec = load_project(tmp_path, ["dev"]).envs["dev"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    _template, strategy = _pod(plan)
    assert strategy == {"type": "Recreate"}
    assert "Recreate" in plan.rollout.reason
