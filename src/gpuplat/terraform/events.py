"""Typed events of terraform's machine-readable UI (the ``-json`` stream, one per line)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gpuplat.terraform.decoded import JsonObject
from gpuplat.terraform.diagnostics import TerraformDiagnostic


@dataclass(frozen=True, slots=True)
class ResourceAddr:
    """The ``resource`` object terraform attaches to change and hook events."""

    addr: str
    module: str = ""
    resource: str = ""
    implied_provider: str = ""
    resource_type: str = ""
    resource_name: str = ""
    resource_key: str | int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Fields every event carries; ``type`` is terraform's message type."""

    type: str
    level: str = "info"
    message: str = ""
    timestamp: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionEvent(Event):
    terraform: str
    ui: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeEvent(Event):
    """A resource instance change: ``action`` is noop/create/read/update/replace/delete/move/…"""

    resource: ResourceAddr
    action: str
    reason: str | None = None
    previous_resource: ResourceAddr | None = None
    importing_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedChange(ChangeEvent):
    """``planned_change``: what the plan will do to one instance."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ResourceDrift(ChangeEvent):
    """``resource_drift``: what changed outside terraform since the last run."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeSummary(Event):
    add: int = 0
    change: int = 0
    remove: int = 0
    import_: int = 0
    operation: str = ""


@dataclass(frozen=True, slots=True)
class OutputSummary:
    """One entry of an ``outputs`` event; value and type only after apply and when not secret."""

    name: str
    sensitive: bool
    action: str | None = None
    type: object = None
    value: object = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OutputsEvent(Event):
    outputs: Mapping[str, OutputSummary] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class HookEvent(Event):
    """An apply hook; ``action`` is create/update/delete/… for the instance it names."""

    resource: ResourceAddr
    action: str = ""
    id_key: str | None = None
    id_value: str | None = None
    elapsed_seconds: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ApplyStart(HookEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ApplyProgress(HookEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ApplyComplete(HookEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ApplyErrored(HookEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RefreshStart(HookEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RefreshComplete(HookEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ProvisionEvent(Event):
    """``provision_start/progress/complete/errored``; ``output`` is one line of its output."""

    resource: ResourceAddr
    provisioner: str = ""
    output: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DiagnosticEvent(Event):
    diagnostic: TerraformDiagnostic


@dataclass(frozen=True, slots=True, kw_only=True)
class LogEvent(Event):
    """``log``, ``init_output``, or ``text``: a stdout line that was not JSON at all."""

    message_code: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CacheWait(Event):
    """gpuplat's own event, not terraform's: the command waits for its turn on the shared
    provider cache (``message`` says for what); it starts as soon as it has it."""

    cache: str


@dataclass(frozen=True, slots=True, kw_only=True)
class UnknownEvent(Event):
    """A message type this version of gpuplat does not know; kept whole, never fatal."""

    raw: JsonObject = field(default_factory=dict)


EventCallback = Callable[[Event], None]
