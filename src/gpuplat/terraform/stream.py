"""Parsing terraform's ``-json`` stream, line by line, into typed events; never fatal."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypedDict

from gpuplat.terraform.decoded import (
    JsonObject,
    as_object,
    get_bool,
    get_int,
    get_object,
    get_opt_str,
    get_str,
    key_value,
    loads,
)
from gpuplat.terraform.diagnostics import diagnostic_from_json
from gpuplat.terraform.events import (
    ApplyComplete,
    ApplyErrored,
    ApplyProgress,
    ApplyStart,
    ChangeEvent,
    ChangeSummary,
    DiagnosticEvent,
    Event,
    HookEvent,
    LogEvent,
    OutputsEvent,
    OutputSummary,
    PlannedChange,
    ProvisionEvent,
    RefreshComplete,
    RefreshStart,
    ResourceAddr,
    ResourceDrift,
    UnknownEvent,
    VersionEvent,
)


class _Base(TypedDict):
    type: str
    level: str
    message: str
    timestamp: str


def resource_addr(value: object) -> ResourceAddr:
    """Parse terraform's ``resource`` object of change and hook events."""
    data = as_object(value)
    return ResourceAddr(
        addr=get_str(data, "addr"),
        module=get_str(data, "module"),
        resource=get_str(data, "resource"),
        implied_provider=get_str(data, "implied_provider"),
        resource_type=get_str(data, "resource_type"),
        resource_name=get_str(data, "resource_name"),
        resource_key=key_value(data.get("resource_key")),
    )


def _change(cls: type[ChangeEvent], base: _Base, data: JsonObject) -> Event:
    change = get_object(data, "change")
    previous = change.get("previous_resource")
    return cls(
        **base,
        resource=resource_addr(change.get("resource")),
        action=get_str(change, "action"),
        reason=get_opt_str(change, "reason"),
        previous_resource=resource_addr(previous) if previous is not None else None,
        importing_id=get_opt_str(get_object(change, "importing"), "id"),
    )


def _hook(cls: type[HookEvent], base: _Base, data: JsonObject) -> Event:
    hook = get_object(data, "hook")
    return cls(
        **base,
        resource=resource_addr(hook.get("resource")),
        action=get_str(hook, "action"),
        id_key=get_opt_str(hook, "id_key"),
        id_value=get_opt_str(hook, "id_value"),
        elapsed_seconds=get_int(hook, "elapsed_seconds"),
    )


def _provision(base: _Base, data: JsonObject) -> Event:
    hook = get_object(data, "hook")
    return ProvisionEvent(
        **base,
        resource=resource_addr(hook.get("resource")),
        provisioner=get_str(hook, "provisioner"),
        output=get_opt_str(hook, "output"),
    )


def _summary(base: _Base, data: JsonObject) -> Event:
    changes = get_object(data, "changes")
    return ChangeSummary(
        **base,
        add=get_int(changes, "add") or 0,
        change=get_int(changes, "change") or 0,
        remove=get_int(changes, "remove") or 0,
        import_=get_int(changes, "import") or 0,
        operation=get_str(changes, "operation"),
    )


def _outputs(base: _Base, data: JsonObject) -> Event:
    outputs = {
        name: OutputSummary(
            name=name,
            sensitive=get_bool(as_object(entry), "sensitive"),
            action=get_opt_str(as_object(entry), "action"),
            type=as_object(entry).get("type"),
            value=as_object(entry).get("value"),
        )
        for name, entry in get_object(data, "outputs").items()
    }
    return OutputsEvent(**base, outputs=outputs)


_Builder = Callable[[_Base, JsonObject], Event]

_BUILDERS: dict[str, _Builder] = {
    "version": lambda b, d: VersionEvent(
        **b, terraform=get_str(d, "terraform") or get_str(d, "tofu"), ui=get_str(d, "ui")
    ),
    "planned_change": lambda b, d: _change(PlannedChange, b, d),
    "resource_drift": lambda b, d: _change(ResourceDrift, b, d),
    "change_summary": _summary,
    "outputs": _outputs,
    "apply_start": lambda b, d: _hook(ApplyStart, b, d),
    "apply_progress": lambda b, d: _hook(ApplyProgress, b, d),
    "apply_complete": lambda b, d: _hook(ApplyComplete, b, d),
    "apply_errored": lambda b, d: _hook(ApplyErrored, b, d),
    "refresh_start": lambda b, d: _hook(RefreshStart, b, d),
    "refresh_complete": lambda b, d: _hook(RefreshComplete, b, d),
    "provision_start": _provision,
    "provision_progress": _provision,
    "provision_complete": _provision,
    "provision_errored": _provision,
    "diagnostic": lambda b, d: DiagnosticEvent(
        **b, diagnostic=diagnostic_from_json(d.get("diagnostic"))
    ),
    "log": lambda b, d: LogEvent(**b, message_code=get_opt_str(d, "message_code")),
    "init_output": lambda b, d: LogEvent(**b, message_code=get_opt_str(d, "message_code")),
}


def parse_event(line: str) -> Event | None:
    """Parse one stdout line of a ``-json`` run; None for a blank line.

    A line that is not a JSON object becomes a ``LogEvent`` of type ``text``: terraform 1.11
    prints some ``init -json`` messages as plain text in the middle of the stream.
    """
    text = line.strip()
    if not text:
        return None
    try:
        decoded = loads(text)
    except ValueError:
        decoded = None
    if not isinstance(decoded, dict):
        return LogEvent(type="text", message=text)
    data = as_object(decoded)
    base: _Base = {
        "type": get_str(data, "type", "unknown"),
        "level": get_str(data, "@level", "info"),
        "message": get_str(data, "@message"),
        "timestamp": get_str(data, "@timestamp"),
    }
    builder = _BUILDERS.get(base["type"])
    if builder is None:
        return UnknownEvent(**base, raw=data)
    return builder(base, data)


def parse_stream(lines: Iterable[str]) -> list[Event]:
    """Parse every line of a recorded ``-json`` stream, skipping blank lines."""
    return [event for line in lines if (event := parse_event(line)) is not None]
