"""`failover` and `converge` refuse a multi-host workload, located, with exit 7 (refused).

Both count, scale and replace Deployments; a multi-host replica is a LeaderWorkerSet group of
whole nodes, which they would miscount. Nothing runs terraform: the refusal comes first.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplat.errors import ExitCode
from tests.multihost.test_group import DATA
from tests.support.cli import run


@pytest.mark.parametrize(
    "args",
    [
        ("failover", "llama-405b", "--to", "frontier-use1", "-e", "dev", "--dry-run"),
        ("failover", "llama-405b", "--to", "frontier-use1", "-e", "dev", "--yes"),
        ("converge", "llama-405b", "-e", "dev", "--yes"),
    ],
)
def test_moves_of_a_group_are_refused_where_the_group_is_written(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    folder = tmp_path / "project"
    shutil.copytree(DATA / "eks-p5-llama405b", folder)
    done = run(*args, cwd=folder)
    assert done.exit_code == ExitCode.REFUSED == 7, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert f"{args[0]} does not move multi-host workloads yet" in said
    assert "gpuplat.yaml:48:5  workloads[0].multi_host" in said
    assert not (folder / "envs").exists()  # nothing rendered, planned or written
