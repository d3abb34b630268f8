"""`gpuplat validate`: load every environment, report all problems at once.

The spec's models and checks are imported only when the spec has to be loaded: a validate of
inputs unchanged since the last one is answered from its record (:mod:`gpuplat.app.validated`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplat.errors import ExitCode, SpecError
from gpuplat.spec.diagnostics import Diagnostic

if TYPE_CHECKING:
    from gpuplat.spec.load import EnvSpec


@dataclass(frozen=True)
class ValidateResult:
    """What `validate` found."""

    envs: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    strict: bool
    notes: tuple[str, ...] = ()
    """What the spec cannot promise, said once (e.g. the notice of a spot preemption)."""
    scaling: tuple[str, ...] = ()
    """What the spec means at run time: per autoscaled workload, the replicas a queue depth
    asks for and how long scaling out takes."""

    @property
    def valid_envs(self) -> tuple[str, ...]:
        """The environments checked that have no error (a base-spec error counts for all)."""
        failing = [d for d in self.diagnostics if d.is_error or self.strict]
        if any(not d.envs for d in failing):
            return ()
        bad = {e for d in failing for e in d.envs}
        return tuple(e for e in self.envs if e not in bad)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> int:
        return len(self.diagnostics) - self.errors

    @property
    def ok(self) -> bool:
        return self.errors == 0 and not (self.strict and self.warnings)

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.ok else ExitCode.INVALID_SPEC

    def summary(self) -> str:
        envs = ", ".join(self.envs) if self.envs else "base spec"
        extra = (
            f" ({self.warnings} warning{'s' if self.warnings != 1 else ''})"
            if self.warnings
            else ""
        )
        return f"valid: {envs}{extra}"

    def to_json(self) -> dict[str, object]:
        return {
            "valid": self.ok,
            "environments": list(self.envs),
            "valid_environments": list(self.valid_envs),
            "errors": self.errors,
            "warnings": self.warnings,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "notes": list(self.notes),
            "scaling": list(self.scaling),
        }


def validate_project(root: Path, envs: Sequence[str], *, strict: bool) -> ValidateResult:
    """Validate the project in ``root``.

    Raises:
        GpuplatError: There is no spec, or an unknown environment was named.
    """
    from gpuplat.app import validated

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
