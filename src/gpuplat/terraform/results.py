"""What a successful terraform command returns: its events, plan outcome, outputs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gpuplat.terraform.diagnostics import TerraformDiagnostic
from gpuplat.terraform.events import (
    ChangeSummary,
    DiagnosticEvent,
    Event,
    PlannedChange,
    ResourceDrift,
)


@dataclass(frozen=True, slots=True)
class RunResult:
    """A streamed command that succeeded, with every event it emitted."""

    argv: tuple[str, ...]
    returncode: int
    events: tuple[Event, ...]
    stderr_tail: str
    skipped: bool = False  # not run: nothing it depends on changed (init only)

    @property
    def diagnostics(self) -> tuple[TerraformDiagnostic, ...]:
        """Warnings (and errors terraform did not fail on), in emission order."""
        return tuple(e.diagnostic for e in self.events if isinstance(e, DiagnosticEvent))

    @property
    def summary(self) -> ChangeSummary | None:
        return next((e for e in reversed(self.events) if isinstance(e, ChangeSummary)), None)

    @property
    def planned_changes(self) -> tuple[PlannedChange, ...]:
        return tuple(e for e in self.events if isinstance(e, PlannedChange))

    @property
    def drift(self) -> tuple[ResourceDrift, ...]:
        return tuple(e for e in self.events if isinstance(e, ResourceDrift))


@dataclass(frozen=True, slots=True)
class PlanResult(RunResult):
    """A plan that succeeded; ``has_changes`` comes from ``-detailed-exitcode`` (exit 2)."""

    plan_file: Path | None = None
    has_changes: bool = False


@dataclass(frozen=True, slots=True)
class OutputValue:
    """One root output from ``terraform output -json``; sensitive values are NOT redacted."""

    name: str
    value: object
    type: object
    sensitive: bool
