"""A multi-host group under Dynamic Resource Allocation: every pod of the group, leader and
workers, claims its node's GPUs through the workload's one ResourceClaimTemplate (a claim per
pod), and requests no ``nvidia.com/gpu``; with Kueue on, validate warns that the quota no
longer counts the group's GPUs."""

from __future__ import annotations

import shutil
from pathlib import Path

from gpuplat import crds
from gpuplat.manifests.objects import serving_objects
from tests.multihost.test_group import DATA, leader_worker, plans
from tests.support.cli import run

DRA = ("addons:\n", "addons:\n  device_plugin: dra\n")


def test_each_pod_of_a_group_claims_its_gpus_from_the_template(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path, "eks-p5-llama405b", DRA)
    assert plan.dra and "nvidia.com/gpu" not in plan.requests
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    template = objects["ResourceClaimTemplate"]
    (request,) = template["spec"]["spec"]["devices"]["requests"]  # type: ignore[index]
    assert request["exactly"] == {"deviceClassName": "gpu.nvidia.com", "count": 8}
    lws = objects["LeaderWorkerSet"]
    group = lws["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        pod = group[role]["spec"]
        assert pod["resourceClaims"] == [
            {"name": "gpu", "resourceClaimTemplateName": "llama-405b-gpu"}
        ]
    for container in leader_worker(lws):
        assert container["resources"]["claims"] == [{"name": "gpu"}]
        assert "nvidia.com/gpu" not in container["resources"]["requests"]
    assert crds.check_object(lws, crds.Result()) == []


def test_kueue_with_dra_is_warned_at_the_group(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    shutil.copytree(DATA / "eks-p5-llama405b", folder)
    spec = folder / "gpuplat.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace(*DRA), encoding="utf-8")
    done = run("validate", cwd=folder)
    assert done.exit_code == 0, done.stderr
    assert "which Kueue's quota does not count" in done.stderr
    # The reason, from Kueue's source: DRA quota is an alpha gate, off by default.
    assert "alpha DynamicResourceAllocation feature gate" in done.stderr
    assert "gpuplat.yaml:49:5  workloads[0].multi_host" in done.stderr
