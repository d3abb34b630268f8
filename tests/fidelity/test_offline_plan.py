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

import json
import shutil
from pathlib import Path

import pytest

from gpuplat.addresses import elements
from gpuplat.spec.load import load_project
from gpuplat.summary import summarize
from gpuplat.terraform.showplan import parse_plan
from tests.support.cli import run as cli_run
from tests.support.golden import GOLDEN
from tests.support.specs import OPERATOR_PATCH, project
from tests.support.standin import RECORD_ENV, build_stand_ins, run

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
    # Record mode only to read data sources (aks-cluster reads azurerm_client_config).
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=infra.tfplan")):
        done = run(cli, root, *args, timeout=600, env=RECORD_ENV)
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
    if cluster.cloud != "gke":
        return  # the upgrade settings below are GKE node pools' (AKS: tests/targets)
    # On-demand and spot pools upgrade by surge without a spare GPU: one node at a time.
    changes = json.loads(shown.stdout)["resource_changes"]
    pools = [c["change"]["after"] for c in changes if c["type"] == "google_container_node_pool"]
    gpu_pools = [p for p in pools if p["name"] != "system"]
    assert len(gpu_pools) == len(cluster.node_pools)
    for pool in gpu_pools:
        surge = {"strategy": "SURGE", "max_surge": 0, "max_unavailable": 1}
        assert [{k: u[k] for k in surge} for u in pool["upgrade_settings"]] == [surge]


def _plan(root: Path) -> dict[str, dict[str, object]]:
    """Every planned resource of an infra root: address -> planned values."""
    (root / "backend.tf").write_text("# local state for an offline plan\n", encoding="utf-8")
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=infra.tfplan")):
        done = run(cli, root, *args, timeout=600)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, root, "show", "-json", "infra.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr
    changes = json.loads(shown.stdout)["resource_changes"]
    return {c["address"]: c["change"]["after"] for c in changes}


# flex-start and queued pools (which GKE upgrades with SHORT_LIVED), a pool whose driver the
# GPU Operator builds, and the add-ons whose webhooks a private control plane must reach.
VARIANT_PATCH = (
    *OPERATOR_PATCH,
    ("          type: spot\n", "          type: flex-start\n"),
    (
        "        labels:\n          team: ml-platform\n",
        "        labels:\n          team: ml-platform\n"
        "      - name: batch\n"
        "        machine_type: g2-standard-8\n"
        "        capacity:\n          type: queued\n"
        "        driver:\n          install: none\n"
        "        image: UBUNTU_CONTAINERD\n",
    ),
    ("  metrics:\n", "  gang_scheduling:\n    kueue: true\n  metrics:\n"),
)


def test_gke_infra_plan_is_right_for_a_private_cluster(tmp_path: Path) -> None:
    folder = project(tmp_path / "p", VARIANT_PATCH)
    assert cli_run("render", cwd=folder).exit_code == 0, "render failed"
    planned = _plan(folder / "envs" / "dev" / "inference-us" / "infra")
    cluster = "module.cluster_inference-us"
    (posture,) = planned[f"{cluster}.google_container_cluster.this"]["security_posture_config"]
    assert posture == {"mode": "BASIC", "vulnerability_mode": "VULNERABILITY_DISABLED"}

    # Private nodes reach the internet through Cloud NAT on the cluster's subnetwork.
    nat = planned[f"{cluster}.google_compute_router_nat.nat[0]"]
    assert nat["region"] == "us-central1" and nat["nat_ip_allocate_option"] == "AUTO_ONLY"
    (subnet,) = nat["subnetwork"]
    assert subnet["name"].endswith("/regions/us-central1/subnetworks/default")
    assert planned[f"{cluster}.google_compute_router.nat[0]"]["network"] == "default"

    # The control plane reaches the nodes on the webhook ports of KEDA (scale-to-zero in dev)
    # and Kueue, and nowhere else beyond what GKE opens.
    firewall = planned[f"{cluster}.google_compute_firewall.webhooks[0]"]
    assert firewall["source_ranges"] == ["172.16.0.0/28"]
    assert firewall["allow"] == [{"protocol": "tcp", "ports": ["6443", "9443"]}]
    (tag,) = firewall["target_tags"]
    system = planned[f"{cluster}.google_container_node_pool.system"]["node_config"][0]
    assert system["tags"] == [tag]

    pools = {
        name: planned[f"module.pool_inference-us_{name}.google_container_node_pool.this"]
        for name in ("l4-shared", "batch")
    }
    for name, pool in pools.items():
        # GKE gives flex-start and queued pools SHORT_LIVED upgrades: no SURGE block to fight.
        assert pool["upgrade_settings"] == [], name
        assert pool["node_config"][0]["tags"] == [tag], name
    shielded = {n: p["node_config"][0]["shielded_instance_config"][0] for n, p in pools.items()}
    assert shielded["l4-shared"]["enable_secure_boot"] is True  # GKE's signed driver
    assert shielded["batch"]["enable_secure_boot"] is False  # the operator builds it
    labels = {n: p["node_config"][0]["labels"] for n, p in pools.items()}
    assert labels["l4-shared"]["nvidia.com/gpu.deploy.driver"] == "false"
    assert "nvidia.com/gpu.deploy.driver" not in labels["batch"]
    assert all(v["gke-no-default-nvidia-gpu-device-plugin"] == "true" for v in labels.values())

    # Image streaming on the COS pool: the Container File System API is on (and stays on when
    # the cluster is destroyed, on google 6.x and 7.x alike) and the custom node service
    # account may consume it.
    gcfs = {n: p["node_config"][0]["gcfs_config"] for n, p in pools.items()}
    assert gcfs == {"l4-shared": [{"enabled": True}], "batch": [{"enabled": False}]}
    service = planned[f"{cluster}.google_project_service.container_filesystem[0]"]
    assert service["service"] == "containerfilesystem.googleapis.com"
    assert service["disable_on_destroy"] is False
    role = "roles/serviceusage.serviceUsageConsumer"
    consumer = planned[f'{cluster}.google_project_iam_member.nodes["{role}"]']
    assert consumer["project"] == service["project"] == "acme-inference-dev"
