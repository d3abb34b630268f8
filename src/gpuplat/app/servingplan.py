"""What a plan of serving roots keeps: the count each placement was last seen serving.

Each plan of a cluster's serving root refreshes its Deployments' replica counts. During an
outage a source's cloud cannot be read: a scale-to-zero target is then brought up to the count
its source was last seen serving (not to its autoscaler's minimum of 0). Those counts are kept
in ``.gpuplat/state/<env>/serving-seen.json`` (workload -> cluster -> replicas; a placement seen
running none is left out), beside the local state, not in the committed ``envs/<env>/moves.json``:
a count that KEDA changes many times a day is an observation, not a change to review, and a
plan in CI would otherwise leave the working tree dirty.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat.app.rolecount import RoleCount
from gpuplat.errors import GpuplatError, user_files
from gpuplat.vendoring.disk import write_file

if TYPE_CHECKING:
    from gpuplat.app.plan import ClusterPlan

FILE = "serving-seen.json"

Seen = dict[str, dict[str, int]]


def path(root: Path, env: str) -> Path:
    """Where the environment's counts last seen serving are kept."""
    return root / ".gpuplat" / "state" / env / FILE


def load(root: Path, env: str) -> Seen:
    """Workload -> cluster -> replicas last seen running (none kept: empty).

    Raises:
        FileError: The file cannot be read.
        GpuplatError: It is not what gpuplat writes.
    """
    where = path(root, env)
    with user_files("read the counts last seen serving"):
        if not where.exists():
            return {}
        text = where.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        return {
            name: {cluster: int(n) for cluster, n in counts.items()}
            for name, counts in data.items()
        }
    except (ValueError, TypeError, AttributeError) as exc:
        raise GpuplatError(
            f"{where} is not a record of counts seen serving: {exc}",
            hint="remove it: the next plan of each serving root writes it again",
        ) from None


def remember(root: Path, env: str, seen: Mapping[tuple[str, str], int]) -> None:
    """Keep the counts a plan read, (workload, cluster) -> replicas; the file is written only
    when one differs from what it holds.

    Raises:
        FileError: The file cannot be read or written.
    """
    found = load(root, env)
    before = json.dumps(found, sort_keys=True)
    for (workload, cluster), count in seen.items():
        counts = found.setdefault(workload, {})
        if count > 0:
            counts[cluster] = count
        else:
            counts.pop(cluster, None)
        if not counts:
            del found[workload]
    if json.dumps(found, sort_keys=True) == before:
        return
    where = path(root, env)
    with user_files("keep the counts last seen serving"):
        if not found:
            where.unlink(missing_ok=True)
            return
        write_file(where, json.dumps(found, indent=2, sort_keys=True) + "\n")


def last_known(root: Path, env: str, workload: str, cluster: str) -> int:
    """Replicas ``workload`` was last seen running on ``cluster`` (0: none, or never seen).

    Raises:
        FileError: The file cannot be read.
        GpuplatError: It is not what gpuplat writes.
    """
    return load(root, env).get(workload, {}).get(cluster, 0)


def remember_plans(
    root: Path,
    env: str,
    plans: Sequence[ClusterPlan],
    roles: Mapping[tuple[str, str], Mapping[str, RoleCount]],
) -> None:
    """Keep the counts the serving roots of ``plans`` were seen running.

    Raises:
        FileError: The file cannot be read or written.
    """
    seen = {
        (role.name, plan.cluster): count
        for plan in plans
        if plan.error is None
        for summary in plan.stages
        if summary.stage == "serving"
        for address, count in summary.running.items()
        if (role := roles[env, plan.cluster].get(address)) is not None
    }
    if seen:
        remember(root, env, seen)
