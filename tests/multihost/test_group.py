"""Multi-host replicas: a LeaderWorkerSet per workload, its groups, commands and fabric.

The worked example is Llama 3.1 405B (BF16) on groups of 2 x p5.48xlarge over EFA
(tests/multihost/data/eks-p5-llama405b). Every rendered LeaderWorkerSet is checked against the
vendored CRD of kubernetes-sigs/lws (src/gpuplat/crds/data).
"""

from __future__ import annotations

import copy
import shutil
from datetime import date
from pathlib import Path

import pytest

from gpuplat import crds
from gpuplat.manifests.objects import serving_objects
from gpuplat.spec.load import load_project
from gpuplat.workload.serving import ServingPlan, serving_plans

DATA = Path(__file__).parent / "data"
TODAY = date(2026, 12, 2)


def plans(
    tmp_path: Path, example: str = "eks-p5-llama405b", *patches: tuple[str, str]
) -> list[ServingPlan]:
    folder = tmp_path / example
    shutil.copytree(DATA / example, folder)
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in patches:
        assert old in text, old
        text = text.replace(old, new)
    spec.write_text(text, encoding="utf-8")
    envs = load_project(folder, today=TODAY).envs
    return [p for env in envs.values() for p in serving_plans(env)]


def by_kind(plan: ServingPlan) -> dict[str, dict[str, object]]:
    return {str(o["kind"]): o for o in serving_objects(plan)}


def leader_worker(lws: dict[str, object]) -> tuple[dict, dict]:  # type: ignore[type-arg]
    template = lws["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    leader = template["leaderTemplate"]["spec"]["containers"][0]
    worker = template["workerTemplate"]["spec"]["containers"][0]
    return leader, worker


def test_the_405b_example_is_one_leader_worker_set_of_two_nodes(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
    objects = by_kind(plan)
    assert "Deployment" not in objects
    lws = objects["LeaderWorkerSet"]
    assert lws["apiVersion"] == "leaderworkerset.x-k8s.io/v1"
    spec = lws["spec"]
    assert spec["replicas"] == 1  # type: ignore[index]
    template = spec["leaderWorkerTemplate"]  # type: ignore[index]
    assert template["size"] == 2
    assert template["restartPolicy"] == "RecreateGroupOnPodRestart"
    # LeaderReady would create the workers only once the leader is ready, and a vLLM leader is
    # ready only once its workers have joined.
    assert spec["startupPolicy"] == "LeaderCreated"  # type: ignore[index]
    # At max_nodes 4 the pool holds two groups of two nodes; one runs, so a whole new group
    # starts before the old one stops.
    assert spec["rolloutStrategy"] == {  # type: ignore[index]
        "type": "RollingUpdate",
        "rollingUpdateConfiguration": {"maxSurge": 1, "maxUnavailable": 0},
    }
    assert "2 replicas of 16 GPU unit(s)" in plan.rollout.reason


def test_vllm_leader_heads_ray_and_serves_the_group_and_workers_join_it(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
    leader, worker = leader_worker(by_kind(plan)["LeaderWorkerSet"])
    script = leader["command"][2]
    assert leader["command"][:2] == ["sh", "-c"]
    assert script.startswith("ray start --head --port=6379 && ")
    assert "$LWS_GROUP_SIZE" in script  # waits for every worker's Ray node
    assert script.endswith(
        "exec vllm serve /models/Llama-3.1-405B-Instruct --host 0.0.0.0 --port 8000 "
        "--tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray "
        "--served-model-name=llama-405b --max-model-len=32768"
    )
    assert "args" not in leader
    assert worker["command"] == ["ray", "start", "--address=$(LWS_LEADER_ADDRESS):6379", "--block"]
    # The leader alone serves HTTP: its probes cover the whole group coming up.
    assert leader["startupProbe"]["httpGet"] == {"path": "/health", "port": "http"}
    for key in ("ports", "startupProbe", "readinessProbe", "livenessProbe"):
        assert key in leader and key not in worker


def test_every_node_of_the_group_loads_the_weights_and_talks_over_efa(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
    lws = by_kind(plan)["LeaderWorkerSet"]
    template = lws["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        pod = template[role]["spec"]
        assert pod["initContainers"][0]["name"] == "fetch-weights"
        (server,) = pod["containers"]
        requests, limits = server["resources"]["requests"], server["resources"]["limits"]
        for res in (requests, limits):
            assert res["nvidia.com/gpu"] == "8"
            assert res["vpc.amazonaws.com/efa"] == "32"
            assert res["hugepages-2Mi"] == "5120Mi"
        env = {e["name"]: e.get("value") for e in server["env"]}
        assert env["FI_PROVIDER"] == "efa"
        assert env["FI_EFA_USE_DEVICE_RDMA"] == "1"
    # The hugepages come out of the node's memory: the server asks for 5 GiB less than the
    # node's share (1,918,557 Mi on a p5.48xlarge without them).
    assert plan.memory == "1913437Mi"


def test_traffic_goes_to_the_leaders_and_drains_take_one_group_at_a_time(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
    objects = by_kind(plan)
    assert objects["Service"]["spec"]["selector"] == {  # type: ignore[index]
        "gpuplat.dev/workload": "llama-405b",
        "leaderworkerset.sigs.k8s.io/worker-index": "0",
    }
    # One pod evicted restarts its whole group; the budget then holds every other eviction
    # until that group is ready again.
    pdb = objects["PodDisruptionBudget"]["spec"]  # type: ignore[index]
    assert pdb == {
        "maxUnavailable": 1,
        "selector": {"matchLabels": {"gpuplat.dev/workload": "llama-405b"}},
    }


def test_sglang_groups_launch_every_rank_with_its_own_index(tmp_path: Path) -> None:
    (plan,) = plans(
        tmp_path,
        "eks-p5-llama405b",
        (
            "    image: vllm/vllm-openai:v0.11.0\n    server: vllm\n",
            "    image: lmsysorg/sglang:v0.5.4\n    server: sglang\n",
        ),
        (
            "      - --served-model-name=llama-405b\n      - --max-model-len=32768\n",
            "      - --served-model-name=llama-405b\n",
        ),
    )
    leader, worker = leader_worker(by_kind(plan)["LeaderWorkerSet"])
    common = [
        "python3", "-m", "sglang.launch_server", "--model-path", "/models/Llama-3.1-405B-Instruct",
        "--tp", "8", "--pp-size", "2", "--dist-init-addr", "$(LWS_LEADER_ADDRESS):20000",
        "--nnodes", "$(LWS_GROUP_SIZE)", "--node-rank", "$(LWS_WORKER_INDEX)",
        "--served-model-name=llama-405b",
    ]  # fmt: skip
    assert worker["command"] == common
    assert leader["command"] == [*common, "--host", "0.0.0.0", "--port", "8000"]


def test_the_leader_worker_set_passes_its_vendored_crd(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
    lws = by_kind(plan)["LeaderWorkerSet"]
    result = crds.Result()
    assert crds.check_object(lws, result) == []
    (tally,) = [
        t
        for (kind, _, r), t in result.coverage.tallies.items()
        if kind == "LeaderWorkerSet" and r != "documented"
    ]
    assert tally.objects == 1 and tally.constraints > 100


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        (("spec", "leaderWorkerTemplate", "restartPolicy"), "RecreateGroup", "RecreateGroup"),
        (("spec", "startupPolicy"), "LeaderFirst", "LeaderFirst"),
        (("spec", "leaderWorkerTemplate", "sizes"), 2, "sizes"),
    ],
)
def test_the_crd_check_refuses_what_the_api_server_would(
    tmp_path: Path, path: tuple[str, ...], value: object, fragment: str
) -> None:
    (plan,) = plans(tmp_path)
    lws = copy.deepcopy(by_kind(plan)["LeaderWorkerSet"])
    node: dict[str, object] = lws
    for key in path[:-1]:
        node = node[key]  # type: ignore[assignment]
    node[path[-1]] = value
    found = crds.check_object(lws, crds.Result())
    assert found and any(fragment in f.message for f in found), found


def test_with_kueue_each_group_is_admitted_whole_by_a_queue_that_covers_all_it_asks(
    tmp_path: Path,
) -> None:
    (plan,) = plans(tmp_path)
    objects = serving_objects(plan)
    kinds = {str(o["kind"]): o for o in objects}
    lws = kinds["LeaderWorkerSet"]
    assert lws["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "llama-405b"  # type: ignore[index]
    assert kinds["LocalQueue"]["spec"] == {"clusterQueue": "gpuplat-llama-405b"}
    assert kinds["ResourceFlavor"]["spec"] == {
        "nodeLabels": {"gpuplat.dev/pool": "p5"},
        # No topologyName: the pool scales from zero, and Kueue places by topology only on
        # nodes that exist (tests/multihost/test_topology.py).
    }
    queue = kinds["ClusterQueue"]["spec"]
    assert queue["namespaceSelector"] == {  # type: ignore[index]
        "matchLabels": {"kubernetes.io/metadata.name": "llama-405b"}
    }
    (group,) = queue["resourceGroups"]  # type: ignore[index]
    # Every resource a pod of the group requests (Kueue refuses a Workload asking for one its
    # ClusterQueue does not cover), in the same order in the flavor.
    requested = set(plan.requests) | set(plan.weights.init_requests)
    assert group["coveredResources"] == sorted(requested)
    (flavor,) = group["flavors"]
    assert [r["name"] for r in flavor["resources"]] == group["coveredResources"]
    quota = {r["name"]: r["nominalQuota"] for r in flavor["resources"]}
    # replicas.max 1 + a surge group = 2 groups x 2 pods x 8 GPUs / 32 EFA devices.
    assert quota["nvidia.com/gpu"] == "32"
    assert quota["vpc.amazonaws.com/efa"] == "128"
    assert quota["hugepages-2Mi"] == "20Gi"
    # Every custom object passes its vendored CRD (lws 0.10.0, kueue 0.17.3).
    result = crds.Result()
    for obj in objects:
        assert crds.check_object(obj, result) == [], obj["kind"]


def test_without_kueue_there_is_no_queue(tmp_path: Path) -> None:
    (plan,) = plans(
        tmp_path, "eks-p5-llama405b", ("    kueue: true # each group admitted whole\n", "")
    )
    kinds = {str(o["kind"]) for o in serving_objects(plan)}
    assert "LeaderWorkerSet" in kinds
    assert not kinds & {"LocalQueue", "ClusterQueue", "ResourceFlavor"}
