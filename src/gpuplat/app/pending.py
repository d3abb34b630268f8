"""Moves a failover left unfinished, recorded beside the rendered tree of their environment.

``gpuplat failover --target-only`` brings the target up and leaves the sources it could not
plan serving. Terraform leaves a running Deployment's count alone (``ignore_changes``), so
nothing in the spec or the state says that the move is unfinished: ``envs/<env>/moves.json``
does (workload -> target, the sources left serving, their role), committed with the render so
that whoever finishes the move after the outage finds it. ``gpuplat converge`` reads it and
removes the workload's entry once every cluster holds its role's count.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from gpuplat.errors import GpuplatError, user_files
from gpuplat.vendoring.disk import write_file

FILE = "moves.json"


@dataclass(frozen=True)
class PendingMove:
    """A failover of ``workload`` to ``target`` whose ``sources`` were never applied."""

    workload: str
    target: str
    sources: tuple[str, ...]
    source_role: str


def path(root: Path, env: str) -> Path:
    """Where the environment's pending moves are recorded."""
    return root / "envs" / env / FILE


def read(root: Path, env: str) -> dict[str, PendingMove]:
    """Workload -> its pending move (none recorded: empty).

    Raises:
        FileError: The file cannot be read.
        GpuplatError: It is not what gpuplat writes.
    """
    where = path(root, env)
    with user_files("read the pending moves"):
        if not where.exists():
            return {}
        text = where.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        return {
            name: PendingMove(name, m["target"], tuple(m["sources"]), m["source_role"])
            for name, m in data["moves"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise GpuplatError(
            f"{where} is not a record of pending moves: {exc}",
            hint="restore it from version control, or remove it once every cluster holds its role",
        ) from None


def _write(root: Path, env: str, moves: dict[str, PendingMove]) -> None:
    where = path(root, env)
    with user_files("record the pending moves"):
        if not moves:
            where.unlink(missing_ok=True)
            return
        body = {
            "moves": {
                name: {k: v for k, v in asdict(m).items() if k != "workload"}
                for name, m in sorted(moves.items())
            }
        }
        for move in body["moves"].values():
            move["sources"] = list(move["sources"])
        write_file(where, json.dumps(body, indent=2, sort_keys=True) + "\n")


def record(root: Path, env: str, move: PendingMove) -> None:
    """Record ``move`` (replacing an earlier one of the same workload).

    Raises:
        FileError: The file cannot be read or written.
    """
    moves = read(root, env)
    moves[move.workload] = move
    _write(root, env, moves)


def clear(root: Path, env: str, workload: str) -> None:
    """Forget the workload's pending move (the file goes with the last one).

    Raises:
        FileError: The file cannot be read or written.
    """
    moves = read(root, env)
    if moves.pop(workload, None) is not None:
        _write(root, env, moves)
