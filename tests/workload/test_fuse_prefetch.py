"""``model.fuse_prefetch``: an init container reads the model once through the Cloud Storage FUSE
mount before the server starts, so the server's load reads from the filled file cache.

The same 16 MIG replicas of tests/workload/test_fuse_cache_disk.py (29.6 GB, 1000 GB pd-ssd
writing 720 MiB/s shared 16 ways = 47.19 MB/s each). With the prefetch, the cache fill is a copy
before the probes start: 628 s of it (29600 / 47.19, rounded up), then the server loads at
load_bandwidth_mbps, 37 s (29600 / 800). With the cache in memory the fill runs at the
network's 800 MB/s: 37 s, then 37 s of load.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.manifests.objects import serving_objects
from gpuplat.render.serving import model_server_args
from gpuplat.spec.load import load_project
from gpuplat.workload.serving import plan_workload
from gpuplat.workload.weights import PREFETCH_IMAGE
from tests.support.cli import run
from tests.workload.test_fuse_cache_disk import SPEC

PREFETCH = "      mount: gcsfuse\n      fuse_prefetch: true\n"
MODEL = "/models/Qwen2.5-Coder-14B-Instruct"


def _plan(tmp_path: Path, extra: str = ""):  # type: ignore[no-untyped-def]
    text = SPEC.format(local="", replicas=16).replace("      mount: gcsfuse\n", PREFETCH + extra)
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    spec = load_project(tmp_path, ["dev"]).envs["dev"].spec
    return plan_workload(spec, spec.workloads[0], spec.clusters[0])


def test_an_init_container_reads_the_model_through_the_mount(tmp_path: Path) -> None:
    plan = _plan(tmp_path)
    deploy = next(o for o in serving_objects(plan) if o["kind"] == "Deployment")
    pod = deploy["spec"]["template"]["spec"]
    (init,) = pod["initContainers"]
    assert init["image"] == PREFETCH_IMAGE
    assert init["command"] == ["sh", "-c", f"find {MODEL} -type f -exec cat {{}} + > /dev/null"]
    assert init["volumeMounts"] == [{"name": "weights", "mountPath": MODEL}]
    assert init["resources"] == {
        "requests": {"cpu": "250m", "memory": "64Mi"},
        "limits": {"memory": "64Mi"},
    }
    # The FUSE volume itself, unchanged: read-only, the sidecar's annotations on the pod.
    (volume,) = [v for v in pod["volumes"] if v["name"] == "weights"]
    assert volume["csi"]["readOnly"] is True
    assert deploy["spec"]["template"]["metadata"]["annotations"]["gke-gcsfuse/volumes"] == "true"
    # The module call carries the same init container.
    weights = model_server_args(plan)["weights"]
    assert isinstance(weights, dict)
    assert weights["init"]["command"] == init["command"]  # type: ignore[index]


def test_the_fill_is_counted_before_the_probes_start(tmp_path: Path) -> None:
    budget = _plan(tmp_path).startup
    assert budget.copy_seconds == 628  # the cache fill through the shared disk
    assert budget.load_seconds == 37  # then the server reads at load_bandwidth_mbps


def test_a_cache_in_memory_fills_at_the_network_rate(tmp_path: Path) -> None:
    budget = _plan(tmp_path, "      fuse_cache: memory\n").startup
    assert (budget.copy_seconds, budget.load_seconds) == (37, 37)


def test_prefetch_without_cloud_storage_fuse_is_refused(tmp_path: Path) -> None:
    text = SPEC.format(local="", replicas=16).replace(
        "      mount: gcsfuse\n", "      mount: copy\n      fuse_prefetch: true\n"
    )
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "fuse_prefetch" in t)
    assert f"gpuplat.yaml:{line}:22  workloads[0].model.fuse_prefetch" in result.stderr
    assert "fuse_prefetch fills the Cloud Storage FUSE file cache; mount is copy" in result.stderr
