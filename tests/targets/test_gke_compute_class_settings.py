"""A laddered pool's ``compute_class`` (node-pool auto-creation, maxPodsPerNode, node recycling)
and its rungs' ``priority_score``, read against the vendored ComputeClass CRDs.

- Without auto-creation a rule names one of gpuplat's node pools and nothing else on GKE 1.33
  and 1.34 ("Nodepool field cannot be set along with other fields"); the master CRD also takes
  ``priorityScore`` beside it. With auto-creation a rule says the machine, its GPUs and the
  capacity (``reservations.affinity: Specific``, ``flexStart``, ``spot``), which GKE creates
  node pools of, and the settings of those nodes.
- Floors: auto-creation from a ComputeClass on Standard 1.33.3-gke.1136000 (GKE docs);
  maxPodsPerNode and nodeRecycling in the oldest vendored CRD (1.33); priorityScore only in
  the CRD after 1.34 (a floor inferred from the CRDs, 1.35).
- A class is checked against the CRD of its cluster's minor only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat import crds
from tests.support.cli import run
from tests.support.hclread import modules
from tests.targets.test_gke_a3_ultra_ladder import SPEC

RUNGS = """\
          - reservation: h200-reserved
          - flex-start: {max_run_duration: 7d}
          - flex-start: {max_run_duration: 1d}
          - spot
"""
SCORED = """\
          - {reservation: h200-reserved, priority_score: 40}
          - {flex-start: {max_run_duration: 7d}, priority_score: 30}
          - {flex-start: {max_run_duration: 1d}, priority_score: 20}
          - {spot: {}, priority_score: 10}
        compute_class:
          auto_create: true
          max_pods_per_node: 32
          node_recycling: 1h
"""


def _spec(rungs: str = SCORED, version: str = "1.35") -> str:
    assert RUNGS in SPEC
    return SPEC.replace(RUNGS, rungs).replace('version: "1.35"', f'version: "{version}"')


def _at(text: str, needle: str) -> str:
    """``gpuplat.yaml:LINE:COL`` of the value of the first ``key: value`` written as
    ``needle``."""
    key = needle.split(": ", 1)[0] + ": "
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return f"gpuplat.yaml:{number}:{line.index(needle) + len(key) + 1}"
    raise AssertionError(needle)


def _error(stderr: str, at: str) -> str:
    """The one error reported at ``at``."""
    blocks = [b for b in stderr.split("\n\n") if b.startswith("Error:") and f"  {at}  " in b]
    assert len(blocks) == 1, stderr
    return blocks[0]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("auto-create")
    (folder / "gpuplat.yaml").write_text(_spec(), encoding="utf-8")
    checked = run("validate", "--strict", cwd=folder)
    assert checked.exit_code == 0, checked.stderr
    rendered = run("render", cwd=folder)
    assert rendered.exit_code == 0, rendered.stderr
    return folder / "envs" / "dev" / "h200-us"


def test_auto_create_renders_a_rule_of_each_rung_s_machine_and_capacity(root: Path) -> None:
    platform = next(iter(modules(root / "platform" / "main.tf").values()))
    (cls,) = platform["compute_classes"]
    spec = cls["spec"]
    assert spec["nodePoolAutoCreation"] == {"enabled": True}
    gpu = {"type": "nvidia-h200-141gb", "count": 8, "driverVersion": "latest"}
    common = {"machineType": "a3-ultragpu-8g", "gpu": gpu, "maxPodsPerNode": 32}
    flex = {"enabled": True, "nodeRecycling": {"leadTimeSeconds": 3600}}
    assert spec["priorities"] == [
        {
            **common,
            "priorityScore": 40,
            "reservations": {"affinity": "Specific", "specific": [{"name": "h200-reserved"}]},
        },
        {**common, "priorityScore": 30, "flexStart": flex, "maxRunDurationSeconds": 604800},
        {**common, "priorityScore": 20, "flexStart": flex, "maxRunDurationSeconds": 86400},
        {**common, "priorityScore": 10, "spot": True},
    ]
    # Checked against the CRD GKE 1.35 serves (the master CRD), which takes every field.
    assert cls["metadata"]["labels"][crds.MINOR_LABEL] == "1.35"
    result = crds.Result()
    assert crds.check_object(cls, result) == []
    releases = {release for _, _, release in result.coverage.tallies} - {"documented"}
    assert releases == {"GKE after 1.34 (no release branch yet)"}


def test_pods_on_an_auto_created_ladder_are_placed_by_the_class(root: Path) -> None:
    """Nodes GKE creates carry the class's label, never gpuplat's pool label."""
    serving = modules(root / "serving" / "main.tf")
    (server,) = [b for b in serving.values() if "placement" in b]
    placement = server["placement"]
    assert placement["pool_label"] == "cloud.google.com/compute-class"
    assert placement["pools"] == ["gpuplat-h200"]


def test_priority_score_beside_nodepools_passes_1_35_and_not_1_34() -> None:
    """The version-aware check: one class, two minors, two answers."""
    cls = {
        "apiVersion": "cloud.google.com/v1",
        "kind": "ComputeClass",
        "metadata": {"name": "c"},
        "spec": {
            "priorities": [{"nodepools": ["a"], "priorityScore": 5}],
            "whenUnsatisfiable": "DoNotScaleUp",
        },
    }
    assert crds.check_object(cls, crds.Result(), minor=(1, 35)) == []
    refused = crds.check_object(cls, crds.Result(), minor=(1, 34))
    assert refused and all(f.against == ("GKE 1.34",) for f in refused)
    # A minor no vendored CRD serves is checked against all of them.
    assert {d.release for d in crds.lookup("cloud.google.com/v1", "ComputeClass", (1, 31))} == {
        d.release for d in crds.lookup("cloud.google.com/v1", "ComputeClass")
    }


def test_a_nodepools_class_may_score_its_rungs_from_1_35(tmp_path: Path) -> None:
    text = _spec(
        "          - {reservation: h200-reserved, priority_score: 20}\n"
        "          - {spot: {}, priority_score: 10}\n"
    )
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    assert run("render", cwd=tmp_path).exit_code == 0
    platform = next(iter(modules(tmp_path / "envs/dev/h200-us/platform/main.tf").values()))
    (cls,) = platform["compute_classes"]
    assert cls["spec"]["nodePoolAutoCreation"] == {"enabled": False}
    assert cls["spec"]["priorities"] == [
        {"nodepools": ["h200-res"], "priorityScore": 20},
        {"nodepools": ["h200-spot"], "priorityScore": 10},
    ]


def test_a_score_on_some_rungs_only_is_refused_at_the_rung_without(tmp_path: Path) -> None:
    """The master CRD: "PriorityScore must be set for all priorities or for none of them"."""
    text = _spec("          - {reservation: h200-reserved, priority_score: 20}\n          - spot\n")
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    line = next(n for n, t in enumerate(text.splitlines(), start=1) if t.endswith("- spot"))
    block = _error(result.stderr, f"gpuplat.yaml:{line}:13")
    assert "on every rule of a ComputeClass or on none" in block
    assert "gpuplat defect" not in result.stderr


@pytest.mark.parametrize(
    ("version", "needle", "reason"),
    [
        ("1.32", "auto_create: true", "needs GKE 1.33.3-gke.1136000 or later"),
        ("1.32", "max_pods_per_node: 32", "needs GKE 1.33 or later"),
        ("1.32", "node_recycling: 1h", "needs GKE 1.33 or later"),
        ("1.34", "priority_score: 40", "needs GKE 1.35 or later (a floor inferred"),
    ],
)
def test_each_setting_below_its_floor_is_refused_where_it_is_written(
    tmp_path: Path, version: str, needle: str, reason: str
) -> None:
    text = _spec(version=version)
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    block = _error(result.stderr, _at(text, needle))
    assert reason in block
    assert f"runs {version}" in block
    assert "gpuplat defect" not in result.stderr


def test_auto_create_on_its_floor_minor_is_a_warning(tmp_path: Path) -> None:
    text = _spec(SCORED.replace("priority_score: ", "name: r"), version="1.33")
    text = text.replace("name: r40", "name: res").replace("name: r30", "name: flex")
    text = text.replace("name: r20", "name: flex2").replace("name: r10", "name: spot")
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "needs GKE 1.33.3-gke.1136000 or later; 1.33 may be older" in result.stderr


def test_node_settings_without_auto_create_are_refused(tmp_path: Path) -> None:
    text = _spec(SCORED.replace("auto_create: true", "auto_create: false"))
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    for needle in ("max_pods_per_node: 32", "node_recycling: 1h"):
        assert _at(text, needle) in result.stderr
    assert "set compute_class.auto_create: true, or remove it" in result.stderr


def test_node_recycling_as_long_as_a_flex_start_run_is_refused(tmp_path: Path) -> None:
    text = _spec(SCORED.replace("node_recycling: 1h", "node_recycling: 1d"))
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    assert _at(text, "node_recycling: 1d") in result.stderr
    assert "the shortest flex-start rung runs 86400s" in result.stderr


def test_compute_class_on_a_single_pool_or_another_cloud_is_refused(tmp_path: Path) -> None:
    text = _spec("          - spot\n        compute_class: {auto_create: true}\n")
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    assert "renders no ComputeClass" in _error(result.stderr, _at(text, "compute_class: {"))
    eks = text.replace("cloud: gke", "cloud: eks")
    (tmp_path / "gpuplat.yaml").write_text(eks, encoding="utf-8")
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    assert "compute_class is a GKE setting" in result.stderr
