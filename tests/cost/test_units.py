"""GPU counts name their unit: a MIG slice or a time-slice is one nvidia.com/gpu, not one GPU.
`place`, the plan summary's serving line and the picture say which (e.g. "24 x 3g.40gb on 12
H100-80GB")."""

from __future__ import annotations

from pathlib import Path

from gpuplat.addresses import elements
from gpuplat.render.naming import module_label
from gpuplat.spec.load import load_project
from gpuplat.summary import summarize
from gpuplat.terraform import parse_plan
from tests.app.test_summary import change, plan_text
from tests.support.cli import run
from tests.support.specs import project


def deployment(replicas: int, gpus: int) -> dict[str, object]:
    container = {"resources": [{"limits": {"nvidia.com/gpu": str(gpus)}}]}
    return {
        "spec": [
            {
                "replicas": str(replicas),
                "template": [{"spec": [{"container": [container]}]}],
            }
        ]
    }


def test_place_names_a_mig_slice_and_a_time_slice(tmp_path: Path) -> None:
    mig = run("place", cwd=project(tmp_path / "mig", example="gke-h100-mig")).stdout
    assert "  coder (1 x 3g.40gb (MIG slice of H100-80GB) a replica)" in mig.splitlines()
    shared = run("place", cwd=project(tmp_path / "l4")).stdout
    assert "  chat (1 x 1/2 L4 time-slice a replica)" in shared.splitlines()


def test_a_plan_names_the_units_the_servers_request(tmp_path: Path) -> None:
    """24 replicas of coder, one 3g.40gb each: 24 MIG slices, two to an H100 (the catalog's
    3g.40gb layout), so 12 H100-80GB, not "24 GPUs". The Deployment is written by hand in the
    `terraform show -json` format (the plan needs a GKE cluster to run)."""
    root = project(tmp_path, example="gke-h100-mig")
    spec = load_project(root, ["prod"]).envs["prod"].spec
    label = module_label("serve", "coder", "mig-central")
    plan = plan_text(
        [
            change(
                f"module.{label}.kubernetes_deployment_v1.this",
                "kubernetes_deployment_v1",
                ["create"],
                None,
                deployment(24, 1),
            )
        ]
    )
    summary = summarize("prod", "serving", parse_plan(plan), elements(spec))
    lines = summary.lines()
    assert "    GPUs the model servers request: 0 -> 24 (+24)" in lines
    assert "      in units: 24 x 3g.40gb on 12 H100-80GB" in lines


def test_the_picture_names_the_unit(tmp_path: Path) -> None:
    picture = run("graph", "dev", cwd=project(tmp_path, example="gke-h100-mig")).stdout
    assert "1 x 3g.40gb (MIG slice of H100-80GB) each" in picture
