"""`gpuplat place`: for each workload, the clusters of the spec that can run it, and why not."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from gpuplat.spec.checks import workloads
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.load import EnvSpec, load_project
from gpuplat.spec.locate import Locator
from gpuplat.spec.portability import WorkloadFit, portability


def place(root: Path, envs: Sequence[str]) -> dict[str, list[WorkloadFit]]:
    """The portability report of each environment.

    A workload listed on a cluster that cannot run it is what the report answers, per cluster,
    so the errors of the workload checks do not stop it; every other error of the spec does.

    Raises:
        SpecError: The spec or an overlay has errors other than where workloads can run.
        GpuplatError: There is no spec, or an unknown environment was named.
    """
    project = load_project(root, envs, tolerate=_placement_errors())
    return {name: portability(env) for name, env in project.envs.items()}


def _placement_errors() -> Callable[[EnvSpec, Diagnostic], bool]:
    """Whether an error is one of the workload checks' on a workload (where it can run)."""
    found: dict[str, set[str]] = {}

    def tolerated(env: EnvSpec, diag: Diagnostic) -> bool:
        if diag.path[:1] != ("workloads",):
            return False
        if env.name not in found:
            checked = workloads.check(env.spec, Locator(env.tree, {}), set())
            found[env.name] = {d.message for d in checked if d.is_error}
        return diag.message in found[env.name]

    return tolerated


def report_lines(env: str, fits: list[WorkloadFit]) -> list[str]:
    """The report as text: one line per workload and cluster, reasons indented under it."""
    lines = [f"{env}:"]
    for fit in fits:
        # A MIG slice or a share of a GPU is named as such, never as a GPU.
        plural = f"{fit.gpus} GPU{'s' if fit.gpus != 1 else ''}"
        each = fit.unit.each(fit.gpus) if fit.unit is not None else plural
        lines.append(f"  {fit.workload} ({each} a replica)")
        width = max(len(c.cluster) for c in fit.clusters) + 2
        for c in fit.clusters:
            where = "placed" if c.listed else "not placed"
            if c.fits:
                ok = [p.pool for p in c.pools if not p.reasons]
                lines.append(f"    {c.cluster:<{width}}can run it ({where}): {', '.join(ok)}")
                continue
            lines.append(f"    {c.cluster:<{width}}cannot run it ({where}):")
            lines += [f"      - {reason}" for reason in c.why_not()]
    return lines


def report_json(report: dict[str, list[WorkloadFit]]) -> dict[str, object]:
    """The report as JSON: per environment, workload and cluster."""
    return {
        env: {
            fit.workload: {
                c.cluster: {
                    "fits": c.fits,
                    "placed": c.listed,
                    "pools": [p.pool for p in c.pools if not p.reasons],
                    "reasons": c.why_not(),
                }
                for c in fit.clusters
            }
            for fit in fits
        }
        for env, fits in report.items()
    }
