"""Taking a source down behind a front door: its record's weight to 0 first, then its replicas.

A front door's record lives in the same serving root as the model server it points at, and one
apply cannot order an update of the record before the replacement of the Deployment (terraform
destroys a dependent before it updates what it depends on). So a source whose Deployment is
replaced is applied twice: first its root planned without the replacement (the Deployment
leaves its count to ``ignore_changes``, so only the record's weight, the outputs and what
does not touch the running replicas change), then with it. Between the two, Route 53 stops
sending new clients to it (after the record's TTL) while it still serves the old ones.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.app.apply import apply_env
from gpuplat.app.door import follow
from gpuplat.app.plan import plan_envs
from gpuplat.progress import Progress
from gpuplat.spec.load import EnvSpec
from gpuplat.terraform import TerraformBinary


def has_front_door(env: EnvSpec, workload: str) -> bool:
    """The workload has a front door whose records follow its roles."""
    return any(w.name == workload and w.front_door is not None for w in env.spec.workloads)


def take_down(
    root: Path,
    env: str,
    cluster: str,
    deployment: str,
    *,
    binary: TerraformBinary,
    progress: Progress,
    spec: EnvSpec | None = None,
    doors: list[str] | None = None,
) -> bool:
    """Apply a source behind a front door: its weight to 0, then its Deployment replaced.

    Returns whether anything was applied. With ``spec``, a front-door root of its own (Cloud
    DNS) that follows the cluster is applied between the two (its weight read from the first),
    and its label appended to ``doors`` when it changed.

    Raises:
        GpuplatError: A plan or an apply failed (after the first apply, the source is out of
            the front door and still serving).
    """
    applied = False
    for step, replace in enumerate(({}, {cluster: [deployment]})):
        if step and spec is not None:
            changed = follow(root, spec, [cluster], binary=binary, progress=progress)
            if doors is not None:
                doors.extend(changed)
        plan = plan_envs(
            root,
            [env],
            binary=binary,
            progress=progress,
            stage="serving",
            clusters=[cluster],
            replace=replace,
        )[0]
        if plan.error is not None:
            raise plan.error
        done = apply_env(root, env, binary=binary, progress=progress, clusters=[cluster], yes=True)
        applied = applied or bool(done.applied)
    return applied
