"""Autoscaling of multi-host groups: KEDA scales the LeaderWorkerSet through its scale
subresource, so the count moves by whole groups; the set leaves spec.replicas to KEDA; the
scrape reads the leaders, which serve the API and its metrics; the count is capped by the
groups the pool's max_nodes hold. Scale to zero stays refused for groups.

The worked example is Llama 3.1 405B on groups of 2 x p5.48xlarge
(tests/multihost/data/eks-p5-llama405b), scaled between 1 and 2 groups on vLLM's queue.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplat import crds
from gpuplat.manifests.objects import keda_objects, serving_objects
from gpuplat.render.serving import model_server_args, scaler_args
from gpuplat.spec.load import load_project
from gpuplat.workload.scaling import scrape_of
from gpuplat.workload.serving import ServingPlan
from tests.multihost.test_group import DATA, TODAY, plans
from tests.parity.test_serving import compare, label, planned_objects, write_root

AUTOSCALED = (
    "    replicas:\n      min: 1\n      max: 1\n",
    "    replicas:\n      min: 1\n      max: 2\n"
    "    autoscaling:\n      metric: vllm:num_requests_waiting\n      target: 8\n",
)


def autoscaled(tmp_path: Path, *more: tuple[str, str]) -> ServingPlan:
    (plan,) = plans(tmp_path, "eks-p5-llama405b", AUTOSCALED, *more)
    return plan


def test_keda_scales_the_set_by_whole_groups(tmp_path: Path) -> None:
    plan = autoscaled(tmp_path)
    assert plan.scaler is not None
    found = serving_objects(plan) + keda_objects(plan, plan.scaler)
    objects = {str(o["kind"]): o for o in found}
    scaled = objects["ScaledObject"]["spec"]
    assert scaled["scaleTargetRef"] == {  # type: ignore[index]
        "name": "llama-405b",
        "apiVersion": "leaderworkerset.x-k8s.io/v1",
        "kind": "LeaderWorkerSet",
    }
    # Groups, not pods: 1..2 groups of 2 nodes each, 4 nodes at most (the pool's max_nodes).
    assert (scaled["minReplicaCount"], scaled["maxReplicaCount"]) == (1, 2)  # type: ignore[index]
    # KEDA owns the count: the set names none, or every sync would force it back.
    lws = objects["LeaderWorkerSet"]
    assert "replicas" not in lws["spec"]  # type: ignore[operator]
    for kind in ("ScaledObject", "LeaderWorkerSet"):
        assert crds.check_object(objects[kind], crds.Result()) == []


def test_the_module_inputs_say_the_same(tmp_path: Path) -> None:
    plan = autoscaled(tmp_path)
    group = model_server_args(plan)["group"]
    assert isinstance(group, dict) and group["autoscaled"] is True
    scaler = scaler_args(plan)
    assert scaler is not None
    assert scaler["target"] == {
        "api_version": "leaderworkerset.x-k8s.io/v1",
        "kind": "LeaderWorkerSet",
    }
    assert scaler["replicas"] == {"min": 1, "max": 2}


def test_a_fixed_group_count_keeps_its_replicas_and_no_scaler(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
    assert plan.scaler is None
    group = model_server_args(plan)["group"]
    assert isinstance(group, dict) and "autoscaled" not in group
    lws = {str(o["kind"]): o for o in serving_objects(plan)}["LeaderWorkerSet"]
    assert lws["spec"]["replicas"] == 1  # type: ignore[index]


def test_the_scrape_reads_the_leaders_only(tmp_path: Path) -> None:
    folder = tmp_path / "eks-p5-llama405b"
    shutil.copytree(DATA / "eks-p5-llama405b", folder)
    (workload,) = load_project(folder, today=TODAY).envs["dev"].spec.workloads
    group = scrape_of(workload)
    one = scrape_of(workload.model_copy(update={"multi_host": None}))
    assert one is not None and group is not None
    assert dict(one.selector) == {"gpuplat.dev/workload": "llama-405b"}
    assert dict(group.selector) == {
        "gpuplat.dev/workload": "llama-405b",
        "leaderworkerset.sigs.k8s.io/worker-index": "0",
    }


def test_the_scaler_never_asks_for_more_groups_than_the_pool_holds(tmp_path: Path) -> None:
    # max 3 groups x 2 nodes = 6 > the pool's 4 nodes: validate warns, the scaler stops at 2.
    plan = autoscaled(tmp_path, ("      max: 2\n    autoscaling", "      max: 3\n    autoscaling"))
    assert plan.scaler is not None and plan.scaler.max_replicas == 2


@pytest.mark.terraform
def test_the_autoscaled_group_plans_and_equals_the_plain_manifests(tmp_path: Path) -> None:
    plan = autoscaled(tmp_path / "spec")
    plans_ = {label("mh", "dev", plan.name, plan.cluster): plan}
    write_root(tmp_path / "root", plans_, lambda _file, text: text)
    planned = planned_objects(tmp_path / "root")
    (module,) = planned.values()
    lws = module[("LeaderWorkerSet", "llama-405b")]
    assert "replicas" not in lws["spec"]  # type: ignore[operator]
    scaled = module[("ScaledObject", "llama-405b-scaler")]
    assert scaled["spec"]["scaleTargetRef"]["kind"] == "LeaderWorkerSet"  # type: ignore[index]
    assert compare(plans_, planned) == []
