"""GKE and AKS infra roots planned offline, read through gpuplat's plan summary.

The google (and azurerm) stand-in plans every resource as configured (computed values unknown), so a real
`terraform plan` of the rendered infra root runs with no cloud and no credentials. The JSON
that `terraform show -json` writes for it is what `gpuplat plan` reads in production; here it
goes through the same parser and summary as there. That proves, against Terraform's real output
rather than a recorded fixture, that module addresses map back to the spec's clusters and pools
and that the GPU count is read from the attributes the gke-gpu-node-pool and aks-gpu-node-pool
modules really set (AKS: the VM size's GPUs, from the catalog). Only the state backend is
swapped for a local one (the gcs and azurerm backends need credentials). No real Azure API is
involved: the azurerm stand-in serves the real 4.79 schema and nothing else.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplat.addresses import elements
from gpuplat.spec.load import load_project
from gpuplat.summary import summarize
from gpuplat.terraform.showplan import parse_plan
from tests.support.golden import GOLDEN
from tests.support.standin import build_stand_ins, run

pytestmark = pytest.mark.terraform


# Per example: GPUs per node of its pools' machine type, and the workloads whose own cloud
# identity (AKS: for Azure Blob weights) the infra root creates.
CASES = {
    ("gke-l4-vllm", "dev"): (1, ()),
    ("gke-h100-mig", "prod"): (8, ()),
    ("aks-a100-vllm", "dev"): (1, ("chat",)),
}


@pytest.mark.parametrize(("example", "env"), list(CASES))
def test_infra_plan_reads_as_the_spec(example: str, env: str, tmp_path: Path) -> None:
    project = tmp_path / example
    shutil.copytree(GOLDEN / example, project, ignore=shutil.ignore_patterns(".terraform*"))
    (root,) = (project / "envs" / env).glob("*/infra")
    (root / "backend.tf").write_text("# local state for an offline plan\n", encoding="utf-8")
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=infra.tfplan")):
        done = run(cli, root, *args, timeout=600)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, root, "show", "-json", "infra.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr

    spec = load_project(project, [env]).envs[env].spec
    summary = summarize(env, "infra", parse_plan(shown.stdout), elements(spec))

    cluster = spec.clusters[0]
    labels = {c.element.label(): c.headline() for c in summary.elements}
    expected = {f"cluster {cluster.name}": "create"}
    expected |= {f"pool {cluster.name}/{p.name}": "create" for p in cluster.node_pools}
    gpus_per_node, identities = CASES[(example, env)]
    expected |= {f"workload {w}@{cluster.name}": "create" for w in identities}
    assert labels == expected, summary.lines()
    assert "other -" not in labels  # every resource belongs to a spec element
    assert set(summary.counts) == {"create"}
    # GPUs at the pools' bounds, from the catalog: physical GPUs per node x node bounds.
    low = sum(p.autoscaling.min_nodes for p in cluster.node_pools) * gpus_per_node
    high = sum(p.autoscaling.max_nodes for p in cluster.node_pools) * gpus_per_node
    assert summary.gpus is not None
    assert (summary.gpus.min_before, summary.gpus.max_before) == (0, 0)
    assert (summary.gpus.min_after, summary.gpus.max_after) == (low, high), summary.gpus.text()
