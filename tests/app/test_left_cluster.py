"""A cluster taken out of the spec: its roots go with the render, what its state holds does not.

gpuplat plans the spec's clusters only, so nothing would ever plan the destroy of a cluster
that left it (nor of a Traffic Manager profile its serving root owned). The render that deletes
its roots says so once, and so does the plan that renders it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.cli import run
from tests.support.moto import write_cli_config
from tests.support.realparts import terraform_bin

WARNING = "Warning: cluster inference-eus left the spec of prod: its roots are deleted"
HINT = "put it back and run `gpuplat destroy prod --cluster inference-eus` first"


def without_aks(project: Path) -> None:
    """inference-eus taken out of gpuplat.yaml, of the workload and of the prod overlay."""
    for name in ("gpuplat.yaml", "envs/prod.yaml", "envs/dev.yaml"):
        path = project / name
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if "clusters" not in data:
            continue
        data["clusters"] = [c for c in data["clusters"] if c["name"] != "inference-eus"]
        for workload in data.get("workloads", []):
            if "clusters" in workload:
                workload["clusters"] = [c for c in workload["clusters"] if c != "inference-eus"]
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def test_the_render_that_deletes_a_cluster_roots_warns_once(tmp_path: Path) -> None:
    assert run("init", tmp_path, "--example", "failover-gke-aks").exit_code == 0
    assert run("render", "-e", "prod", cwd=tmp_path).exit_code == 0
    without_aks(tmp_path)
    done = run("render", "-e", "prod", cwd=tmp_path)
    assert done.exit_code == 0, done.stderr
    assert WARNING in done.stderr and HINT in done.stderr, done.stderr
    assert "  delete envs/prod/inference-eus/serving/main.tf" in done.stderr
    again = run("render", "-e", "prod", "--check", cwd=tmp_path)
    assert again.exit_code == 0 and "left the spec" not in again.stderr, again.stderr


@pytest.mark.terraform
def test_the_plan_that_renders_it_warns_too(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert run("init", project, "--example", "failover-gke-aks").exit_code == 0
    assert run("render", "-e", "prod", cwd=project).exit_code == 0
    without_aks(project)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("AWS_", "GOOGLE_", "CLOUDSDK_", "ARM_", "TF_", "CI"))
    }
    env.update(
        {
            "HOME": str(tmp_path),
            "GPUPLAT_TERRAFORM": terraform_bin(),
            "TF_CLI_CONFIG_FILE": str(write_cli_config(tmp_path / "terraformrc")),
            "NO_COLOR": "1",
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "gpuplat", "plan", "prod"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # GKE's state backend finds no Google credentials here: the plan stops there, after the
    # render has said what it deleted.
    assert done.returncode == 6, done.stderr
    assert WARNING in done.stderr and HINT in done.stderr, done.stderr
