"""Rendered roots are `terraform fmt`-clean for any spec, judged by the real terraform."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.specs import project
from tests.support.tffmt import fmt_problems

# A second workload, with a longer name, on the example's cluster: the serving root's
# endpoints map then has two keys of different widths.
SECOND_WORKLOAD = (
    (
        "\nenvironments:\n",
        "\n  - name: chat-long-name\n    image: vllm/vllm-openai:v0.11.0\n"
        "    model:\n      source: gs://acme-models/other\n      size_gb: 6.5\n"
        "    pool: l4-shared\n    replicas:\n      min: 1\n      max: 1\n"
        "    clusters: [inference-us]\n\nenvironments:\n",
    ),
)


@pytest.mark.terraform
def test_two_workloads_render_fmt_clean_roots(tmp_path: Path) -> None:
    folder = project(tmp_path / "p", SECOND_WORKLOAD)
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    outputs = (folder / "envs" / "dev" / "serving" / "outputs.tf").read_text(encoding="utf-8")
    assert '"chat-long-name@inference-us" = ' in outputs
    assert fmt_problems(folder / "envs", tmp_path) == ""
