"""`cost` counts a multi-host replica as its group: nodes x the node's GPUs, not one node."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.cli import run

EXAMPLE = Path(__file__).parent / "data" / "eks-p5-llama405b"


def test_expected_cost_and_stranded_count_every_node_of_a_group(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(EXAMPLE, root)
    done = run("cost", "--json", cwd=root)
    assert done.exit_code == 0, done.stderr
    pool = json.loads(done.stdout)["environments"][0]["clusters"][0]["pools"][0]
    # replicas.min 1 of a group of 2 p5.48xlarge (8 GPUs each): 2 nodes x 55.04 $/h x 730 h.
    assert (pool["expected"]["nodes"], pool["expected"]["gpus"]) == (2, 16)
    assert pool["expected"]["usd_per_month"] == round(2 * 55.04 * 730, 2) == 80358.40
    stranded = run("cost", "--stranded", cwd=root)
    assert stranded.exit_code == 0, stranded.stderr
    assert "use 16 of 32 units (2 of 4 nodes)" in stranded.stdout + stranded.stderr


def test_the_picture_draws_a_group_as_one_replica_over_its_nodes(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(EXAMPLE, root)
    done = run("graph", "dev", "--format", "dot", cwd=root)
    assert done.exit_code == 0, done.stderr
    box = next(line for line in done.stdout.splitlines() if line.strip().startswith("e0w0 ["))
    assert "workload llama-405b\\n1..1 groups of 2 nodes\\n2 x 8 GPUs = 16 GPUs a group" in box
