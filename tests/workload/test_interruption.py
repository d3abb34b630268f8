"""The notice each cloud gives before it takes a spot node back, against the rendered grace
period (preStop + drain_time). No emulator preempts a node: the figures are the clouds'
documented notices (GKE Spot VMs ~15 s best effort, EC2 Spot 2 minutes, Azure Spot 30 s by
Scheduled Events), kept on each target."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.spec.load import load_project
from gpuplat.workload.interruption import notes
from tests.support.specs import project


@pytest.mark.parametrize(
    ("example", "env", "notice", "left"),
    [
        ("gke-l4-vllm", "dev", 15, 0),
        ("eks-l4-vllm", "dev", 120, 105),
        ("aks-a100-vllm", "dev", 30, 15),
    ],
)
def test_spot_notice_is_said_per_cloud(
    example: str, env: str, notice: int, left: int, tmp_path: Path
) -> None:
    folder = project(tmp_path, example=example)
    spec = load_project(folder, [env]).envs[env].spec
    (line,) = notes(spec)
    assert "on spot pool" in line
    assert f"of the {notice}s and in-flight requests get {left}s" in line
    assert "The rendered grace of 135s (preStop 15s + drain_time 120s)" in line


def test_no_note_where_the_grace_fits_or_nothing_is_taken_back(tmp_path: Path) -> None:
    # prod of gke-l4-vllm is on-demand; an EKS drain_time within the 2 minutes fits.
    folder = project(tmp_path / "gke")
    assert notes(load_project(folder, ["prod"]).envs["prod"].spec) == []
    patch = (("    port: 8000\n", "    port: 8000\n    drain_time: 90s\n"),)
    folder = project(tmp_path / "eks", patch, example="eks-l4-vllm")
    assert notes(load_project(folder, ["dev"]).envs["dev"].spec) == []
