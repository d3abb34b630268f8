"""What a render that deletes roots leaves running: warnings for clusters and front doors gone.

A root whose folder a render deletes is reached by no later plan, but what its state holds
(a cluster, its GPU pools, a Cloud DNS record set) keeps running and costing until destroyed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from gpuplat.render.naming import DOOR_DEPTH
from gpuplat.spec.diagnostics import Diagnostic, Severity
from gpuplat.tree.record import EnvEntry, Manifest


def _both(
    previous: Manifest, manifest: Manifest, envs: Iterable[str]
) -> Iterator[tuple[str, EnvEntry, EnvEntry]]:
    """Each of ``envs`` that both the last render and this one hold, with both entries."""
    for env in envs:
        before, after = previous.envs.get(env), manifest.envs.get(env)
        if before is not None and after is not None:
            yield env, before, after


def left_clusters(previous: Manifest, manifest: Manifest, envs: Iterable[str]) -> list[Diagnostic]:
    """A warning per cluster the last render had and this one has not.

    Its roots are deleted with the render, and gpuplat plans only the spec's clusters: what its
    state holds (the cluster, its GPU pools, a Traffic Manager profile of the first cluster) is
    never destroyed, and keeps running and costing.
    """
    out = []
    for env, before, after in _both(previous, manifest, envs):
        for cluster in sorted(set(before.clusters) - set(after.clusters)):
            out.append(
                Diagnostic(
                    Severity.WARNING,
                    f"cluster {cluster} left the spec of {env}: its roots are deleted, and no "
                    "plan will reach what its state holds (the cluster, its GPU pools, a front "
                    "door's profile)",
                    None,
                    ("clusters",),
                    hint=f"if anything of it was applied, put it back and run `gpuplat destroy "
                    f"{env} --cluster {cluster}` first (for a workload behind a front door, take "
                    "it out of the workload's clusters and apply before), then remove it",
                    envs=(env,),
                )
            )
    return out


def left_doors(previous: Manifest, manifest: Manifest, envs: Iterable[str]) -> list[Diagnostic]:
    """A warning per Cloud DNS front-door root the last render had and this one has not.

    Its folder is deleted with the render; the record set and health check in its state stay
    live (and answer with the addresses they last had) until destroyed.
    """
    out = []
    for env, before, after in _both(previous, manifest, envs):
        for folder in sorted(_door_folders(before.files) - _door_folders(after.files)):
            out.append(
                Diagnostic(
                    Severity.WARNING,
                    f"the front door {folder} left the spec of {env}: its root is deleted, and "
                    "no plan will reach what its state holds (the Cloud DNS record set and its "
                    "health check, still answering)",
                    None,
                    ("workloads",),
                    hint=f"if it was applied, put it back and run `gpuplat destroy {env} --stage "
                    "door` first, then remove it",
                    envs=(env,),
                )
            )
    return out


def _door_folders(files: Iterable[str]) -> set[str]:
    """The front-door root folders (``door-<workload>``) among an environment's files."""
    return {
        parts[2]
        for path in files
        if len(parts := path.split("/")) == DOOR_DEPTH + 1 and parts[2].startswith("door-")
    }
