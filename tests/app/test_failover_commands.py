"""The commands a failover prints must work when pasted into a shell.

`gpuplat plan` exits 10 when it planned changes, so `plan && apply` never applies anything
there is to apply. These run the printed line in a real POSIX shell, with `gpuplat` a shell
function that exits as the real command does (10: changes planned; 1: an error): the shell's
handling of the exit codes is what is checked, not gpuplat's.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpuplat.app.failover import failover
from gpuplat.app.move import MoveResult, result_lines
from tests.app.test_failover import failover_project


def ran(line: str, plan_exit: int, tmp: Path) -> list[str]:
    """What the shell ran of ``line``, with ``gpuplat plan`` exiting ``plan_exit``."""
    log = tmp / "ran.log"
    log.unlink(missing_ok=True)
    script = (
        f'gpuplat() {{ echo "$1" >> {log}; if [ "$1" = plan ]; then return {plan_exit}; fi; }}\n'
        f"{line}\n"
    )
    subprocess.run(["sh", "-c", script], check=False, timeout=30)
    return log.read_text().split() if log.exists() else []


@pytest.mark.parametrize(
    ("plan_exit", "expected"), [(10, ["plan", "apply"]), (0, ["plan", "apply"]), (1, ["plan"])]
)
def test_the_pending_phase_command_applies_what_plan_planned(
    tmp_path: Path, plan_exit: int, expected: list[str]
) -> None:
    folder = failover_project(tmp_path / "p")
    check = failover(folder, "dev", "chat", "inference-us", "cold")
    result = MoveResult("dev", check, overlay="envs/dev.yaml", applied=["inference-us"])
    result.pending = ["inference-use1"]
    line = next(x for x in result_lines(result) if x.startswith("phase 2 pending"))
    command = line.split("once it can be planned: ", 1)[1]
    assert "--cluster inference-use1" in command
    assert ran(command, plan_exit, tmp_path) == expected
