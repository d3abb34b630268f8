"""Rendered roots are `terraform fmt`-clean for any spec, judged by the real terraform."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from gpuplat.errors import SpecError
from gpuplat.render.roots import render
from gpuplat.spec.load import load_project
from gpuplat.spec.model import Spec
from tests.support.cli import run
from tests.support.specgen import specs
from tests.support.specs import project
from tests.support.tffmt import fmt_problems

# A second workload, with a longer name, on the example's cluster: the serving root's
# endpoints map then has two keys of different widths.
SECOND_WORKLOAD = (
    (
        "\naddons:\n",
        "      - name: l4-other\n        machine_type: g2-standard-8\n"
        "        autoscaling:\n          min_nodes: 0\n          max_nodes: 1\n\naddons:\n",
    ),
    (
        "\nenvironments:\n",
        "\n  - name: chat-long-name\n    image: vllm/vllm-openai:v0.11.0\n"
        "    model:\n      source: gs://acme-models/other\n      size_gb: 6.5\n"
        "    pool: l4-other\n    replicas:\n      min: 1\n      max: 1\n"
        "    clusters: [inference-us]\n\nenvironments:\n",
    ),
)


@pytest.mark.terraform
def test_two_workloads_render_fmt_clean_roots(tmp_path: Path) -> None:
    folder = project(tmp_path / "p", SECOND_WORKLOAD)
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    outputs = (folder / "envs" / "dev" / "inference-us" / "serving" / "outputs.tf").read_text(
        encoding="utf-8"
    )
    assert '"chat-long-name@inference-us" = ' in outputs
    assert fmt_problems(folder / "envs", tmp_path) == ""


@pytest.mark.terraform
def test_roots_of_generated_specs_are_fmt_clean(tmp_path: Path) -> None:
    # Hypothesis writes the specs; every rendered root of all of them goes to one real
    # `terraform fmt -check` run (one run per spec would spend most of the time starting it).
    projects = tmp_path / "projects"
    seen: Counter[str] = Counter()

    # Derandomized: the same specs every run, so the coverage asserted below (several GKE
    # clusters, GKE with EKS, ...) is a property of the generator, not of luck.
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(specs())
    def render_one(text: str) -> None:
        folder = projects / f"p{seen['projects']:04d}"
        folder.mkdir(parents=True)
        (folder / "gpuplat.yaml").write_text(text, encoding="utf-8")
        try:
            loaded = load_project(folder)
        except SpecError as exc:
            raise AssertionError(
                "the generator wrote a spec gpuplat refuses:\n"
                + "\n".join(d.message for d in exc.diagnostics)
                + f"\n{text}"
            ) from exc
        for path, root_text in render(loaded.envs.values()).files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(root_text, encoding="utf-8")
        count(seen, loaded.envs[next(iter(loaded.envs))].spec)

    render_one()
    problems = fmt_problems(projects, tmp_path)
    first = problems.split("\n", 1)[0].strip()
    spec = Path(first.split("/envs/", 1)[0]) / "gpuplat.yaml" if "/envs/" in first else None
    assert problems == "", f"{problems}\nspec of {first}:\n" + (
        spec.read_text() if spec and spec.is_file() else ""
    )
    # The generator must keep reaching the shapes this test is about.
    assert seen["projects"] >= EXAMPLES // 2
    for shape in (
        "several gke",
        "several eks",
        "gke and eks",
        "several workloads",
        "zero",
        "failover",
    ):
        assert seen[shape] > 0, f"no generated spec had {shape}: {dict(seen)}"
    assert seen["longest eks cluster name"] == 100 and seen["longest gke name"] == 40


EXAMPLES = 100


def count(seen: Counter[str], spec: Spec) -> None:
    """Tally what a generated spec holds, to prove the generator reaches every shape."""
    clouds = Counter(c.cloud for c in spec.clusters)
    seen["projects"] += 1
    seen["several gke"] += clouds["gke"] >= 2
    seen["several eks"] += clouds["eks"] >= 2
    seen["gke and eks"] += bool(clouds["gke"] and clouds["eks"])
    seen["several workloads"] += len(spec.workloads) >= 2
    seen["zero"] += any(w.scale_to_zero for w in spec.workloads)
    seen["failover"] += any(len(w.clusters) >= 2 for w in spec.workloads)
    for cluster in spec.clusters:
        names = [cluster.name, *(p.name for p in cluster.node_pools)]
        key = "longest eks cluster name" if cluster.cloud == "eks" else "longest gke name"
        seen[key] = max(
            seen[key], len(cluster.name) if cluster.cloud == "eks" else max(map(len, names))
        )
