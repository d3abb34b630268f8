"""Mutation tests: a replica request that takes a node's last millicore is seen, located.

Two ways in. The serving plan computed from a spec (what the model-server module and the plain
manifests are written from) is changed to request the node's last millicore, and the fit check
finds it on the pool it overruns. And the spec itself asks for it (``resources.cpu``): validate
warns (refuses under --strict) at the request, with the largest request that leaves the margin,
and refuses one that does not fit at all. The unchanged examples pass both. The two cases of
issue 19 are reproduced: the L4 prod example (2 x 3705m of 7410m before) and a whole-node H200
server (222620m of a3-ultragpu-8g's 224 vCPU before).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from gpuplat.spec.load import load_project
from gpuplat.spec.model import Spec
from gpuplat.workload.allocatable import NodeShare, node_share
from gpuplat.workload.fit import overruns
from gpuplat.workload.resources import pod_requests
from gpuplat.workload.serving import ServingPlan, plan_workload
from tests.support.cli import run
from tests.support.specs import H200_SPEC, h200_project, project


def plan_and_nodes(spec: Spec) -> tuple[ServingPlan, list[NodeShare]]:
    cluster = spec.clusters[0]
    plan = plan_workload(spec, spec.workloads[0], cluster)
    nodes = [node_share(spec, cluster, p) for p in cluster.node_pools if p.name in plan.pools]
    assert nodes and all(n is not None for n in nodes)
    return plan, [n for n in nodes if n is not None]


def plan_overruns(plan: ServingPlan, nodes: list[NodeShare]) -> list[tuple[str, str, bool]]:
    pod = pod_requests(plan.cpu, plan.memory, fuse=plan.weights.mode == "gcsfuse")
    return [
        (o.node.pool, o.resource, o.fits)
        for node in nodes
        for o in overruns(node, pod, plan.gpu_count)
    ]


def test_l4_plan_taking_the_last_millicore_is_seen(tmp_path: Path) -> None:
    spec = load_project(project(tmp_path), ["prod"]).envs["prod"].spec
    plan, nodes = plan_and_nodes(spec)
    assert plan_overruns(plan, nodes) == []  # as computed: leaves the margin
    node = nodes[0]
    # Two replicas per node: each taking half of what is left after the DaemonSets takes the
    # node to its last millicore, (7910 - 749) // 2 = 3580m.
    last = node.free.cpu_millis // 2
    assert last == 3580
    mutated = dataclasses.replace(plan, cpu=f"{last}m")
    assert plan_overruns(mutated, nodes) == [("l4-shared", "cpu", True)]
    # Today's main asked for 3705m: two of them do not fit beside the DaemonSets.
    before = dataclasses.replace(plan, cpu="3705m")
    assert plan_overruns(before, nodes) == [("l4-shared", "cpu", False)]


def test_h200_plan_taking_the_last_millicore_is_seen(tmp_path: Path) -> None:
    spec = load_project(h200_project(tmp_path), ["dev"]).envs["dev"].spec
    plan, nodes = plan_and_nodes(spec)
    assert plan_overruns(plan, nodes) == []
    before = dataclasses.replace(plan, cpu="222620m")  # 224000 - 630 - 500 - 250
    assert plan_overruns(before, nodes) == [("h200", "cpu", False)]
    memory = dataclasses.replace(plan, memory=f"{nodes[0].free.memory_mib - 256}Mi")
    assert plan_overruns(memory, nodes) == [("h200", "memory", True)]


def with_cpu(folder: Path, cpu: str, after: str) -> Path:
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count(after) == 1
    spec.write_text(text.replace(after, f'{after}    resources:\n      cpu: "{cpu}"\n'))
    return folder


def located(stderr: str) -> tuple[str, str]:
    found = re.search(r"^  (gpuplat\.yaml:\d+:\d+)  (\S+)$", stderr, re.MULTILINE)
    assert found is not None, stderr
    return found.group(1), found.group(2)


def test_validate_warns_at_a_request_that_takes_the_margin(tmp_path: Path) -> None:
    unchanged = project(tmp_path / "a")
    assert run("validate", "--strict", cwd=unchanged).exit_code == 0
    folder = with_cpu(project(tmp_path / "b"), "3580m", "    gpus: 1\n")
    result = run("validate", cwd=folder)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(
        'Warning: cpu 3580m leaves a node of pool "l4-shared" in cluster "inference-us" 1m of '
        "its 180m margin: 2 replicas take 7160m of 7161m"
    )
    lines = (folder / "gpuplat.yaml").read_text(encoding="utf-8").splitlines()
    line = lines.index('      cpu: "3580m"') + 1
    assert located(result.stderr) == (f"gpuplat.yaml:{line}:12", "workloads[0].resources.cpu")
    assert "Hint: lower resources.cpu to 3490m or less" in result.stderr
    assert run("validate", "--strict", cwd=folder).exit_code == 4


def test_validate_refuses_the_h200_request_of_before(tmp_path: Path) -> None:
    assert run("validate", "--strict", cwd=h200_project(tmp_path / "a")).exit_code == 0
    folder = h200_project(tmp_path / "b")
    with_cpu(folder, "222620m", "    gpus: 8\n")
    result = run("validate", cwd=folder)
    assert result.exit_code == 4
    assert result.stderr.startswith(
        "Error: cpu 222620m with the Cloud Storage FUSE sidecar's is more than a replica's share "
        'of a node of pool "h200" in cluster "h200-central": a replica needs 222870m and the node '
        "has 222621m for them"
    )
    line = H200_SPEC.splitlines().index("    gpus: 8") + 3  # after gpus:, resources:, cpu:
    assert located(result.stderr) == (f"gpuplat.yaml:{line}:12", "workloads[0].resources.cpu")
    assert "Hint: lower resources.cpu to 220037m or less" in result.stderr
