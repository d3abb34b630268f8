"""Moves a failover left unfinished, and the counts last seen serving, beside the rendered tree.

``gpuplat failover --target-only`` brings the target up and leaves the sources it could not
plan serving. Terraform leaves a running Deployment's count alone (``ignore_changes``), so
nothing in the spec or the state says that the move is unfinished: ``envs/<env>/moves.json``
does (workload -> target, the sources left serving, their role, the count the target was
brought up to), committed with the render so that whoever finishes the move after the outage
finds it. ``gpuplat converge`` reads it and removes the workload's entry once every cluster
holds its role's count.

The counts each placement was last seen serving are kept apart, outside the committed tree
(app/servingplan.py); a ``serving`` entry an earlier gpuplat wrote here is dropped on the next
write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
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
    source_replicas: int = 0
    """What the sources served (read, or last known): the count the target is held at until
    they are down; 0 when no count was known or the target has no autoscaler."""


@dataclass
class Record:
    """Everything ``moves.json`` holds."""

    moves: dict[str, PendingMove] = field(default_factory=dict)


def path(root: Path, env: str) -> Path:
    """Where the environment's pending moves are recorded."""
    return root / "envs" / env / FILE


def load(root: Path, env: str) -> Record:
    """The environment's record (none: empty).

    Raises:
        FileError: The file cannot be read.
        GpuplatError: It is not what gpuplat writes.
    """
    where = path(root, env)
    with user_files("read the pending moves"):
        if not where.exists():
            return Record()
        text = where.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        moves = {
            name: PendingMove(
                name,
                m["target"],
                tuple(m["sources"]),
                m["source_role"],
                int(m.get("source_replicas", 0)),
            )
            for name, m in data.get("moves", {}).items()
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise GpuplatError(
            f"{where} is not a record of pending moves: {exc}",
            hint="restore it from version control, or remove it once every cluster holds its role",
        ) from None
    return Record(moves)


def read(root: Path, env: str) -> dict[str, PendingMove]:
    """Workload -> its pending move (none recorded: empty).

    Raises:
        FileError: The file cannot be read.
        GpuplatError: It is not what gpuplat writes.
    """
    return load(root, env).moves


def _write(root: Path, env: str, record: Record) -> None:
    where = path(root, env)
    with user_files("record the pending moves"):
        if not record.moves:
            where.unlink(missing_ok=True)
            return
        body: dict[str, object] = {
            "moves": {
                name: {
                    "target": m.target,
                    "sources": list(m.sources),
                    "source_role": m.source_role,
                    "source_replicas": m.source_replicas,
                }
                for name, m in sorted(record.moves.items())
            }
        }
        write_file(where, json.dumps(body, indent=2, sort_keys=True) + "\n")


def record(root: Path, env: str, move: PendingMove) -> None:
    """Record ``move`` (replacing an earlier one of the same workload).

    Raises:
        FileError: The file cannot be read or written.
    """
    found = load(root, env)
    found.moves[move.workload] = move
    _write(root, env, found)


def clear(root: Path, env: str, workload: str) -> None:
    """Forget the workload's pending move (the file goes with the last entry).

    Raises:
        FileError: The file cannot be read or written.
    """
    found = load(root, env)
    if found.moves.pop(workload, None) is not None:
        _write(root, env, found)
