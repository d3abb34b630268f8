"""Terraform's progress as people see it: a live display on a terminal, plain lines otherwise."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gpuplat.console import Console
from gpuplat.terraform import (
    ApplyComplete,
    ApplyErrored,
    ApplyProgress,
    ApplyStart,
    CacheWait,
    ChangeSummary,
    Event,
)

_DONE = {"create": "created", "update": "updated", "delete": "destroyed", "replace": "replaced"}


def describe(event: Event) -> str | None:
    """A short line for the events worth showing, None for the rest."""
    if isinstance(event, ApplyStart):
        return f"{event.action}: {event.resource.addr} ..."
    if isinstance(event, ApplyProgress):
        return (
            f"{event.action}: {event.resource.addr} still working ({event.elapsed_seconds or 0}s)"
        )
    if isinstance(event, ApplyComplete):
        done = _DONE.get(event.action, event.action)
        return f"{done}: {event.resource.addr} ({event.elapsed_seconds or 0}s)"
    if isinstance(event, ApplyErrored):
        return f"failed: {event.resource.addr}"
    if isinstance(event, CacheWait):
        return event.message
    if isinstance(event, ChangeSummary):
        verb = {"apply": "applied", "destroy": "destroyed"}.get(event.operation, "plan")
        return f"{verb}: {event.add} to add, {event.change} to change, {event.remove} to destroy"
    return None


class Progress:
    """Hands out one event callback per running stage; safe to use from several threads."""

    def __init__(self, console: Console, *, live: bool) -> None:
        self.console = console
        self.live = live and console.interactive
        self._lock = threading.Lock()
        self._rich: Any = None

    @contextmanager
    def running(self) -> Iterator[Progress]:
        """Keep a live display open while stages run (a no-op for plain output)."""
        if not self.live:
            yield self
            return
        from rich.console import Console as RichConsole
        from rich.progress import Progress as RichProgress
        from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

        rich_console = RichConsole(file=self.console.err, no_color=not self.console.color)
        with RichProgress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=rich_console,
            transient=False,
        ) as display:
            self._rich = display
            try:
                yield self
            finally:
                self._rich = None

    def say(self, text: str) -> None:
        """A line for people, above the live display when there is one."""
        with self._lock:
            if self._rich is not None:
                self._rich.console.print(text, markup=False, highlight=False)
            else:
                self.console.say(text)

    def stage(self, label: str, verb: str) -> StageTracker:
        """Track one stage; its ``on_event`` feeds the display."""
        task = None
        if self._rich is not None:
            task = self._rich.add_task(f"{label}: {verb}", total=None)
        return StageTracker(self, label, task)


class StageTracker:
    """The display of one stage of one environment."""

    def __init__(self, progress: Progress, label: str, task: object) -> None:
        self.progress = progress
        self.label = label
        self.task = task

    def note(self, text: str) -> None:
        if self.task is not None and self.progress._rich is not None:
            self.progress._rich.update(self.task, description=f"{self.label}: {text}")
        else:
            self.progress.say(f"[{self.label}] {text}")

    def done(self, text: str) -> None:
        if self.task is not None and self.progress._rich is not None:
            self.progress._rich.update(
                self.task, description=f"{self.label}: {text}", total=1, completed=1
            )
        else:
            self.progress.say(f"[{self.label}] {text}")

    @property
    def on_event(self) -> Callable[[Event], None]:
        def handle(event: Event) -> None:
            text = describe(event)
            if text is not None:
                self.note(text)

        return handle
