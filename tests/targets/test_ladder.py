"""Capacity ladders as rendered: each cloud's priority mechanism names exactly the node pools
the infra stage writes, in the ladder's order.

The tests read the rendered roots (``terraform fmt``-clean HCL, parsed with python-hcl2), never
the views that wrote them: what is checked is what terraform would apply.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuplat import crds
from gpuplat.app import validated
from gpuplat.targets.gke.computeclass import ComputeClass, PriorityRule
from tests.eks.terraform import mirror_env, terraform
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import GKE_LADDER_PATCH, project

EKS_LADDER = (
    (
        "        capacity:\n          type: spot\n",
        "        capacity:\n"
        "          - reservation: cr-0123456789abcdef0\n"
        "            zones: [us-east-1a]\n"
        "          - on-demand\n"
        "          - spot\n",
    ),
)


@pytest.fixture(scope="module")
def gke(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = project(tmp_path_factory.mktemp("gke-ladder"), GKE_LADDER_PATCH)
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    return folder / "envs" / "dev" / "inference-us"


@pytest.fixture(scope="module")
def eks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = project(tmp_path_factory.mktemp("eks-ladder"), EKS_LADDER, example="eks-l4-vllm")
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    return folder / "envs" / "dev" / "inference-use1"


def test_gke_compute_class_and_node_pools_match_rung_by_rung(gke: Path) -> None:
    infra = modules(gke / "infra" / "main.tf")
    pools = {b["name"]: b for n, b in infra.items() if n.startswith("pool_")}
    platform = next(iter(modules(gke / "platform" / "main.tf").values()))
    classes = platform["compute_classes"]
    assert isinstance(classes, list) and len(classes) == 1
    cls = classes[0]
    name = cls["metadata"]["name"]
    spec = cls["spec"]
    assert spec["whenUnsatisfiable"] == "DoNotScaleUp"
    assert spec["activeMigration"] == {"optimizeRulePriority": True}
    assert spec["nodePoolAutoCreation"] == {"enabled": False}
    # Every rung's rule is a nodepools rule naming exactly one rendered pool, in ladder order,
    # and nothing else (GKE refuses any other field beside nodepools); every pool of the class
    # is named by exactly one rule.
    rules = spec["priorities"]
    assert all(list(rule) == ["nodepools"] and len(rule["nodepools"]) == 1 for rule in rules)
    named = [rule["nodepools"][0] for rule in rules]
    assert named == ["l4-shared-res", "l4-shared-od", "l4-shared-flex", "l4-shared-spot"]
    marked = [p for p, body in pools.items() if body["labels"].get(CLASS) == name]
    assert sorted(marked) == sorted(named) == sorted(pools)
    # What each rung is lives in its node pool: the ladder's semantics are the pools'.
    capacity = {pool: pools[pool]["capacity"] for pool in named}
    assert capacity["l4-shared-res"]["type"] == "RESERVATION"
    assert capacity["l4-shared-res"]["reservation"] == "l4-reserved"
    assert pools["l4-shared-res"]["node_locations"] == ["us-central1-a"]
    assert capacity["l4-shared-od"]["type"] == "ON_DEMAND"
    assert capacity["l4-shared-flex"]["type"] == "FLEX_START"
    assert capacity["l4-shared-flex"]["max_run_duration"] == "172800s"
    assert capacity["l4-shared-spot"]["type"] == "SPOT"
    for pool in named:
        body = pools[pool]
        assert {"key": CLASS, "value": name, "effect": "NO_SCHEDULE"} in body["taints"]
        assert body["machine_type"] == "g2-standard-8"
        assert body["accelerator"]["type"] == "nvidia-l4"
        # The one cap (dev: max_nodes 2): each rung may alone have to hold all of it.
        assert body["autoscaling"]["max_nodes"] == 2


def test_gke_compute_class_passes_every_vendored_computeclass_crd(gke: Path) -> None:
    """The rendered class, read back from the platform root, against GKE's own CRDs."""
    platform = next(iter(modules(gke / "platform" / "main.tf").values()))
    cls = platform["compute_classes"][0]
    # The class names the minor it was rendered for, and is checked against the CRD it serves.
    minor = cls["metadata"]["labels"][crds.MINOR_LABEL]
    result = crds.Result()
    assert crds.check_object(cls, result) == []
    releases = {release for _, _, release in result.coverage.tallies} - {"documented"}
    major, _, number = minor.partition(".")
    serving = crds.lookup("cloud.google.com/v1", "ComputeClass", (int(major), int(number)))
    assert releases == {d.release for d in serving}
    assert len(releases) == 1
    # Nothing version-bound in it: it passes every vendored CRD as well.
    unbound = {**cls, "metadata": {"name": cls["metadata"]["name"]}}
    result = crds.Result()
    assert crds.check_object(unbound, result) == []
    releases = {release for _, _, release in result.coverage.tallies} - {"documented"}
    assert releases == {d.release for d in crds.lookup("cloud.google.com/v1", "ComputeClass")}
    assert len(releases) == 3


def test_gke_workload_selects_the_class_and_is_held_to_the_cap(gke: Path) -> None:
    infra = modules(gke / "infra" / "main.tf")
    name = next(b["labels"][CLASS] for n, b in infra.items() if n.startswith("pool_"))
    # The model server's call (the serving root also calls the weights' read grant).
    server = next(m for m in modules(gke / "serving" / "main.tf").values() if "placement" in m)
    placement = server["placement"]
    assert placement["node_selector"] == {CLASS: name}
    assert {"key": CLASS, "operator": "Equal", "value": name, "effect": "NoSchedule"} in placement[
        "tolerations"
    ]
    # The cap in GPUs the pods request: 2 nodes of one L4 shared by 2 (time-slicing).
    assert server["gpu_quota"] == 4


def test_compute_class_problems_are_found_before_render() -> None:
    assert ComputeClass("c", (PriorityRule(("a",)), PriorityRule(("b",)))).problems() == []
    bad = ComputeClass("c", (PriorityRule(("a",)), PriorityRule(("a",)), PriorityRule(())))
    assert bad.problems() == [
        "priorities[1]: node pool a is named by an earlier rule",
        "priorities[2]: a rule names no node pool and no machine",
    ]


CLASS = "cloud.google.com/compute-class"
_PRIORITIES = re.compile(r"^    priorities = \{\n.*?^    \}\n", re.M | re.S)


def test_eks_priority_expander_patterns_match_exactly_the_rendered_groups(
    eks: Path, tmp_path: Path
) -> None:
    """Real terraform evaluates the rendered patterns against Auto Scaling group names.

    The infra stage's state is stood in for by a local holding, for every node group the infra
    root renders, an Auto Scaling group name of the shape EKS gives them
    (``eks-<node group>-<uuid>``), plus decoys whose names extend a real one; the platform root's
    ``priorities`` expression, copied as rendered, is evaluated by terraform.
    """
    infra = modules(eks / "infra" / "main.tf")
    groups = [b["name"] for n, b in infra.items() if n.startswith("pool_")]
    assert groups == ["l4-shared-res", "l4-shared-od", "l4-shared-spot"]
    asg = {g: f"eks-{g}-5ac6d0e2-17b8-7d4c-4e1b-0a2f3c9e8d71" for g in groups}
    system = "eks-system-9e8d7c6b-5a4f-3e2d-1c0b-a9f8e7d6c5b4"
    platform = (eks / "platform" / "main.tf").read_text(encoding="utf-8")
    match = _PRIORITIES.search(platform)
    assert match is not None, "the platform root renders no priorities"
    pools = ", ".join(f'"{g}" = {{ autoscaling_group = "{a}" }}' for g, a in asg.items())
    (tmp_path / "main.tf").write_text(
        "locals {\n"
        f'  clusters = {{ "inference-use1" = {{ system_group = "{system}", pools = {{ {pools} }} }} }}\n'
        "}\n"
        f'output "priorities" {{\n  value = {{\n{match.group(0).split("{", 1)[1]}\n}}\n',
        encoding="utf-8",
    )
    env = mirror_env(tmp_path / "tf")
    for args in (["init", "-input=false", "-no-color"], ["apply", "-auto-approve", "-no-color"]):
        done = terraform(args, tmp_path, env)
        assert done.returncode == 0, done.stdout + done.stderr
    out = terraform(["output", "-json", "priorities"], tmp_path, env)
    priorities = {int(k): v for k, v in json.loads(out.stdout).items()}
    names = [*asg.values(), system]
    decoys = [f"{n}-2" for n in names] + [f"x{n}" for n in names]
    matched: dict[str, list[int]] = {}
    for level, patterns in priorities.items():
        for pattern in patterns:
            hits = [n for n in names + decoys if re.search(pattern, n)]
            assert len(hits) == 1, (pattern, hits)
            matched.setdefault(hits[0], []).append(level)
    # Every group is matched by exactly one pattern, and the rungs come in the ladder's order.
    assert sorted(matched) == sorted(names)
    assert all(len(levels) == 1 for levels in matched.values())
    order = sorted(names, key=lambda n: -matched[n][0])
    assert order == [asg["l4-shared-res"], asg["l4-shared-od"], asg["l4-shared-spot"], system]


def test_validate_refuses_a_compute_class_its_crd_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before anything is rendered, each ladder's class meets GKE's CRDs (a broken manifest()
    stands in for a gpuplat defect: the spec itself cannot produce one)."""
    folder = project(tmp_path, GKE_LADDER_PATCH)
    assert run("validate", cwd=folder).exit_code == 0
    manifest = ComputeClass.manifest

    def with_machine_type(self: ComputeClass) -> dict[str, object]:
        out = manifest(self)
        out["spec"]["priorities"][0]["machineType"] = "g2-standard-8"  # type: ignore[index]
        return out

    monkeypatch.setattr(ComputeClass, "manifest", with_machine_type)
    # gpuplat's code changed in memory only, where its record of the last validate cannot see.
    validated._entry(folder).unlink()
    result = run("validate", cwd=folder)
    assert result.exit_code != 0
    assert (
        "GKE would refuse the ComputeClass gpuplat-l4-shared: spec.priorities[0]:" in result.stderr
    )
    assert "capacity" in result.stderr and "gpuplat defect" in result.stderr
