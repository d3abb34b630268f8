"""`gpuplat validate`: load every environment, report all problems at once.

The spec's models and checks are imported only when the spec has to be loaded: a validate of
inputs unchanged since the last one is answered from its record (:mod:`gpuplat.app.validated`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat.app import validated
from gpuplat.app.validated import ValidateResult
from gpuplat.errors import SpecError

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec

__all__ = ["ValidateResult", "validate_project"]


def validate_project(root: Path, envs: Sequence[str], *, strict: bool) -> ValidateResult:
    """Validate the project in ``root``.

    Raises:
        GpuplatError: There is no spec, or an unknown environment was named.
    """
    known = validated.recall(root, tuple(envs), strict)
    if known is not None:
        return known
    from gpuplat.spec.load import load_project

    try:
        project = load_project(root, envs, strict=strict)
    except SpecError as exc:
        from gpuplat.spec.load import declared_environments

        checked = tuple(envs) or declared_environments(root)
        return ValidateResult(checked, tuple(exc.diagnostics), strict)
    scaling = tuple(n for name in project.envs for n in _scaling_notes(project.envs[name]))
    from gpuplat.workload.interruption import notes

    found: dict[str, list[str]] = {}
    for name, env in project.envs.items():
        for note in notes(env.spec):
            found.setdefault(note, []).append(name)
    said = tuple(f"{note} (in {', '.join(names)})" for note, names in found.items())
    result = ValidateResult(tuple(project.envs), tuple(project.warnings), strict, said, scaling)
    day = project.today.isoformat()
    validated.remember(root, tuple(envs), strict, project.read, project.overlay_files, day, result)
    return result


def _scaling_notes(env: EnvSpec) -> tuple[str, ...]:
    from gpuplat.workload.serving import serving_plans

    out = []
    for plan in serving_plans(env):
        metric = next(w for w in env.spec.workloads if w.name == plan.name).autoscaling.metric
        if plan.scaler is None or metric is None:
            continue
        note = plan.scaler.queue_note(metric)
        if note is not None:
            out.append(f"{env.name}: {plan.name} on {plan.cluster}: {note}")
    return tuple(out)
