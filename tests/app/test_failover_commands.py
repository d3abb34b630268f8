"""The commands a failover prints must work when pasted into a shell.

`gpuplat plan` exits 10 when it planned changes, so `plan && apply` never applies anything
there is to apply. These run the printed line in a real POSIX shell, with `gpuplat` a shell
function that exits as the real command does (10: changes planned; 1: an error): the shell's
handling of the exit codes is what is checked, not gpuplat's.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gpuplat.app.failover import failover, plan_then_apply
from gpuplat.app.move import MoveResult, result_lines
from gpuplat.app.overlay import set_roles
from gpuplat.app.pending import PendingMove, record
from tests.app.test_failover import failover_project
from tests.support.cli import run


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


def test_the_pending_phase_names_the_one_command_that_finishes_the_move(tmp_path: Path) -> None:
    """A source a ``--target-only`` failover left serving is not finished by planning and
    applying its root (terraform leaves its running count alone): the line names converge."""
    folder = failover_project(tmp_path / "p")
    check = failover(folder, "dev", "chat", "inference-us", "cold")
    result = MoveResult("dev", check, overlay="envs/dev.yaml", applied=["inference-us"])
    result.pending = ["inference-use1"]
    lines = result_lines(result)
    assert any(x.startswith("phase 2 pending: inference-use1 still serves") for x in lines)
    line = next(x for x in lines if "finishes the move: " in x)
    command = line.split("finishes the move: ", 1)[1]
    assert command == "gpuplat converge chat -e dev"
    assert ran(command, 10, tmp_path) == ["converge"]


@pytest.mark.parametrize(
    ("plan_exit", "expected"), [(10, ["plan", "apply"]), (0, ["plan", "apply"]), (1, ["plan"])]
)
def test_the_hand_back_command_applies_what_plan_planned(
    tmp_path: Path, plan_exit: int, expected: list[str]
) -> None:
    command = plan_then_apply("dev", "inference-use1")
    assert "--cluster inference-use1" in command
    assert ran(command, plan_exit, tmp_path) == expected


def test_a_dry_run_of_a_pending_move_says_what_finishes_it(tmp_path: Path) -> None:
    """The spec after a --target-only move to GKE, and the move's record: the same failover
    is not refused as one to a cluster that already serves."""
    folder = failover_project(tmp_path / "p")
    set_roles(
        folder / "envs" / "dev.yaml", "chat", {"inference-us": "active", "inference-use1": "cold"}
    )
    record(folder, "dev", PendingMove("chat", "inference-us", ("inference-use1",), "cold"))
    done = run("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", cwd=folder)
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "cannot hold it" not in done.stdout
    assert "gpuplat converge chat -e dev" in done.stdout


def test_a_dry_run_as_json_of_a_pending_move_reports_it_and_what_converge_does(
    tmp_path: Path,
) -> None:
    """The JSON of the same dry run: the pending move from its record and converge's steps
    (the target held at the sources' count, the source replaced at its cold count, the
    target handed back), not the refusal of a failover to a cluster that already serves."""
    folder = failover_project(tmp_path / "p", scale_to_zero=True, replicas={"min": 0, "max": 4})
    set_roles(
        folder / "envs" / "dev.yaml", "chat", {"inference-us": "active", "inference-use1": "cold"}
    )
    record(folder, "dev", PendingMove("chat", "inference-us", ("inference-use1",), "cold", 3))
    done = run(
        "failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", "--json", cwd=folder
    )
    assert done.exit_code == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["refused"] is False and "reasons" not in report
    assert report["pending"] == {
        "target": "inference-us",
        "sources": ["inference-use1"],
        "source_role": "cold",
        "source_replicas": 3,
        "record": "envs/dev/moves.json",
    }
    assert report["converge"]["command"] == "gpuplat converge chat -e dev"
    assert [(s["cluster"], s["does"]) for s in report["converge"]["steps"]] == [
        ("inference-us", "held at 3 replica(s) (what the sources served) until they are down"),
        ("inference-use1", "Deployment replaced: starts at 0 replica(s)"),
        ("inference-us", "handed back to its autoscaler"),
    ]


def test_a_refused_failover_check_exits_7(tmp_path: Path) -> None:
    """A failover to where the workload already serves is refused by its check: 7, the
    README's REFUSED, for the dry run and the real one alike (nothing runs terraform)."""
    folder = failover_project(tmp_path / "p")
    for extra in (["--dry-run"], ["--dry-run", "--json"], ["--yes"]):
        done = run("failover", "chat", "--to", "inference-use1", "-e", "dev", *extra, cwd=folder)
        assert done.exit_code == 7, (extra, done.stdout, done.stderr)
        assert "already serves" in done.stdout
