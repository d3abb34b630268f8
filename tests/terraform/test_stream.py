"""Recorded `-json` streams of real terraform runs parse into the typed events."""

from __future__ import annotations

from pathlib import Path

from gpuplat.terraform import (
    ApplyComplete,
    ApplyErrored,
    ApplyStart,
    ChangeSummary,
    DiagnosticEvent,
    LogEvent,
    OutputsEvent,
    PlannedChange,
    ProvisionEvent,
    RefreshComplete,
    RefreshStart,
    ResourceAddr,
    ResourceDrift,
    TerraformInterrupted,
    UnknownEvent,
    VersionEvent,
    parse_event,
    parse_stream,
)
from gpuplat.terraform.tracker import Tracker
from tests.terraform import read_fixture


def events(name: str) -> list[object]:
    return list(parse_stream(read_fixture(f"events/{name}").splitlines()))


def test_plan_with_creates() -> None:
    stream = events("plan_create.jsonl")
    assert [type(e).__name__ for e in stream] == [
        "VersionEvent",
        *["PlannedChange"] * 4,
        "ChangeSummary",
        "OutputsEvent",
    ]
    version = stream[0]
    assert isinstance(version, VersionEvent)
    assert version.terraform.startswith("1.")
    assert version.ui.startswith("1.")
    changes = sorted(
        (e for e in stream if isinstance(e, PlannedChange)), key=lambda c: c.resource.addr
    )
    # Terraform emits planned changes in walk order, which varies between runs.
    assert [(c.resource.addr, c.action) for c in changes] == [
        ("terraform_data.a", "create"),
        ("terraform_data.b", "create"),
        ("terraform_data.c", "create"),
        ("terraform_data.d[0]", "create"),
    ]
    assert changes[3].resource == ResourceAddr(
        addr="terraform_data.d[0]",
        module="",
        resource="terraform_data.d[0]",
        implied_provider="terraform",
        resource_type="terraform_data",
        resource_name="d",
        resource_key=0,
    )
    summary = stream[5]
    assert isinstance(summary, ChangeSummary)
    assert (summary.add, summary.change, summary.remove, summary.operation) == (4, 0, 0, "plan")
    outputs = stream[6]
    assert isinstance(outputs, OutputsEvent)
    assert outputs.outputs["a"].action == "create"
    assert outputs.outputs["a"].value is None  # unknown until apply


def test_apply_events_carry_ids_and_output_values() -> None:
    stream = events("apply_create.jsonl")
    complete = [e for e in stream if isinstance(e, ApplyComplete)]
    assert {e.resource.addr for e in complete} == {
        "terraform_data.a",
        "terraform_data.b",
        "terraform_data.c",
        "terraform_data.d[0]",
    }
    assert all(e.id_key == "id" and e.id_value and e.elapsed_seconds == 0 for e in complete)
    assert len([e for e in stream if isinstance(e, ApplyStart)]) == 4
    outputs = next(e for e in stream if isinstance(e, OutputsEvent))
    assert outputs.outputs["a"].value == "one"
    assert outputs.outputs["a"].type == "string"
    summary = next(e for e in stream if isinstance(e, ChangeSummary))
    assert (summary.add, summary.operation) == (4, "apply")


def test_apply_with_an_error() -> None:
    stream = events("apply_error.jsonl")
    errored = [e for e in stream if isinstance(e, ApplyErrored)]
    assert [(e.resource.addr, e.action) for e in errored] == [("terraform_data.boom", "create")]
    provision = [e for e in stream if isinstance(e, ProvisionEvent)]
    assert [e.type for e in provision] == [
        "provision_start",
        "provision_progress",
        "provision_progress",
        "provision_errored",
    ]
    assert provision[2].output == "about to fail"
    assert provision[0].provisioner == "local-exec"
    (diag_event,) = [e for e in stream if isinstance(e, DiagnosticEvent)]
    diag = diag_event.diagnostic
    assert diag_event.level == "error"
    assert (diag.severity, diag.summary) == ("error", "local-exec provisioner error")
    assert (diag.filename, diag.line, diag.column) == ("main.tf", 7, 28)
    assert diag.address == "terraform_data.boom"
    assert diag.snippet is not None
    assert diag.snippet.code == '  provisioner "local-exec" {'
    assert diag.snippet.context == 'resource "terraform_data" "boom"'
    assert "exit status 1" in diag.detail


def test_refresh_and_drift_events() -> None:
    stream = events("plan_drift.jsonl")
    assert [type(e) for e in stream[1:4]] == [RefreshStart, RefreshComplete, ResourceDrift]
    refresh = stream[1]
    assert isinstance(refresh, RefreshStart)
    assert (refresh.resource.addr, refresh.id_value) == ("aws_s3_bucket.models", "models")
    drift = stream[3]
    assert isinstance(drift, ResourceDrift)
    assert (drift.resource.addr, drift.action) == ("aws_s3_bucket.models", "update")
    planned = stream[4]
    assert isinstance(planned, PlannedChange) and planned.action == "update"


def test_replace_events_carry_their_reason() -> None:
    changes = [e for e in events("plan_replace.jsonl") if isinstance(e, PlannedChange)]
    assert sorted((c.resource.addr, c.action, c.reason) for c in changes) == [
        ("terraform_data.b", "replace", "cannot_update"),
        ("terraform_data.c", "replace", "cannot_update"),
    ]


def test_init_stream_mixes_plain_text_into_the_json() -> None:
    stream = events("init.jsonl")
    codes = [e.message_code for e in stream if isinstance(e, LogEvent) and e.type == "init_output"]
    assert "output_init_success_message" in codes
    text = [e.message for e in stream if isinstance(e, LogEvent) and e.type == "text"]
    assert any(line.startswith('Successfully configured the backend "local"') for line in text)


def test_unknown_and_odd_lines_never_crash() -> None:
    unknown = parse_event('{"type":"test_run","@level":"info","@message":"hi","run":{"x":1}}')
    assert isinstance(unknown, UnknownEvent)
    assert (unknown.type, unknown.message, unknown.raw["run"]) == ("test_run", "hi", {"x": 1})
    assert parse_event("   \n") is None
    for odd in ("[1, 2]", "not json {", '"a string"'):
        event = parse_event(odd)
        assert isinstance(event, LogEvent) and event.type == "text"
    broken = parse_event('{"type":"apply_start","hook":"not an object"}')
    assert isinstance(broken, ApplyStart) and broken.resource.addr == ""


def test_interrupted_apply_reports_what_was_in_flight() -> None:
    lines = read_fixture("events/apply_interrupted.jsonl").splitlines()
    seen: list[object] = []
    tracker = Tracker(seen.append)
    # The recording sent SIGINT right after the first provisioner output of "slow".
    cut = next(i for i, line in enumerate(lines) if '"provision_progress"' in line) + 1
    for line in lines[:cut]:
        tracker.line(line)
    tracker.interrupted(1)
    for line in lines[cut:]:
        tracker.line(line)
    error = tracker.interrupted_error(
        verb="apply",
        argv=("terraform", "apply"),
        cwd=Path("envs/dev/infra"),
        returncode=1,
        interrupts=1,
        stderr_tail="",
    )
    assert isinstance(error, TerraformInterrupted)
    assert len(seen) == len([line for line in lines if line.strip()])
    assert error.in_progress == ("terraform_data.slow",)
    assert not error.forced
    assert error.exit_code == 130
    assert error.message == (
        "terraform apply in envs/dev/infra was interrupted (Ctrl-C); "
        "terraform stopped gracefully (exit 1)"
    )
    assert error.details[0].startswith("in progress: terraform_data.slow (create), then errored")
    assert (
        "terraform: Interrupt received. Please wait for Terraform to exit or data loss may "
        "occur. Gracefully shutting down..."
    ) in error.details
    assert "Error: execution halted" in error.details
    assert error.diagnostics[0].summary == "local-exec provisioner error"
