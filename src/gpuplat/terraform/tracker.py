"""What a streamed terraform run reported: its events, what was in flight, and Ctrl-C's outcome."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.errors import ExitCode, TerraformError
from gpuplat.terraform.diagnostics import TerraformDiagnostic
from gpuplat.terraform.events import (
    ApplyComplete,
    ApplyErrored,
    ApplyStart,
    DiagnosticEvent,
    Event,
    EventCallback,
    LogEvent,
)
from gpuplat.terraform.stream import parse_event

_SPACE = re.compile(r"\s+")


@dataclass
class TerraformInterrupted(TerraformError):
    """Ctrl-C stopped a terraform run; says what was in flight and how terraform ended.

    Attributes:
        in_progress: Resource addresses terraform was changing when the interrupt arrived.
        forced: True when terraform had to be terminated or killed instead of stopping itself.
    """

    in_progress: Sequence[str] = field(default_factory=tuple)
    forced: bool = False
    exit_code: ExitCode = ExitCode.INTERRUPTED


class Tracker:
    """Parses stdout lines into events, hands them on, and remembers what was in flight."""

    def __init__(self, on_event: EventCallback | None) -> None:
        self.events: list[Event] = []
        self._on_event = on_event
        self._running: dict[str, str] = {}
        self._at_interrupt: dict[str, str] | None = None
        self._after_interrupt: list[Event] = []

    def line(self, text: str) -> None:
        event = parse_event(text)
        if event is None:
            return
        self.events.append(event)
        if self._at_interrupt is not None:
            self._after_interrupt.append(event)
        if isinstance(event, ApplyStart):
            self._running[event.resource.addr] = event.action
        elif isinstance(event, ApplyComplete | ApplyErrored):
            self._running.pop(event.resource.addr, None)
        if self._on_event is not None:
            self._on_event(event)

    def notify(self, event: Event) -> None:
        """Hand on an event of gpuplat's own (not terraform's: not kept in ``events``)."""
        if self._on_event is not None:
            self._on_event(event)

    def interrupted(self, count: int) -> None:
        """Called by the process layer for each Ctrl-C; the first one freezes the in-flight set."""
        if self._at_interrupt is None:
            self._at_interrupt = dict(self._running)

    @property
    def diagnostics(self) -> tuple[TerraformDiagnostic, ...]:
        return tuple(e.diagnostic for e in self.events if isinstance(e, DiagnosticEvent))

    def _outcome(self, address: str) -> str:
        for event in self._after_interrupt:
            if isinstance(event, ApplyComplete | ApplyErrored) and event.resource.addr == address:
                verb = "completed" if isinstance(event, ApplyComplete) else "errored"
                seconds = event.elapsed_seconds
                return f"{verb} after {seconds}s" if seconds is not None else verb
        return "no outcome reported"

    def interrupted_error(
        self,
        *,
        verb: str,
        argv: Sequence[str],
        cwd: Path,
        returncode: int,
        interrupts: int,
        stderr_tail: str,
    ) -> TerraformInterrupted:
        """The error for a run Ctrl-C stopped, built from what terraform said about it."""
        in_flight = self._at_interrupt or {}
        forced = interrupts >= 2
        how = (
            f"terraform was {'terminated' if interrupts == 2 else 'killed'} (exit {returncode})"
            if forced
            else f"terraform stopped gracefully (exit {returncode})"
        )
        details = [
            f"in progress: {address} ({action}), then {self._outcome(address)}"
            for address, action in in_flight.items()
        ]
        details.extend(
            f"terraform: {_SPACE.sub(' ', e.message).strip()}"
            for e in self._after_interrupt
            if isinstance(e, LogEvent) and e.message.strip()
        )
        errors = [d for d in self.diagnostics if d.is_error]
        for diagnostic in errors:
            details.extend(diagnostic.to_lines())
        if forced:
            hint = (
                "Terraform was stopped by force: its state lock may still be held and the state "
                "may lack what it was doing. Run plan to check; if the lock is stuck, plan "
                "reports its ID and the force-unlock command."
            )
        else:
            hint = (
                "Terraform released its state lock. Run plan again: what it was creating may "
                "be tainted and will then be replaced."
            )
        return TerraformInterrupted(
            message=f"terraform {verb} in {cwd} was interrupted (Ctrl-C); {how}",
            hint=hint,
            details=tuple(details),
            argv=tuple(argv),
            returncode=returncode,
            diagnostics=tuple(errors),
            stderr_tail=stderr_tail,
            in_progress=tuple(in_flight),
            forced=forced,
        )
