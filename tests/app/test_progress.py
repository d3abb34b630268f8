"""Progress on recorded Terraform event streams: what people see, plain and live."""

from __future__ import annotations

import io
from pathlib import Path

from gpuplat.console import Console
from gpuplat.progress import Progress, describe
from gpuplat.terraform import parse_stream

EVENTS = Path(__file__).resolve().parents[1] / "terraform" / "fixtures" / "events"


def lines(name: str) -> list[str]:
    events = parse_stream((EVENTS / name).read_text(encoding="utf-8").splitlines())
    return [text for event in events if (text := describe(event)) is not None]


def test_apply_stream_reads_as_one_line_per_step() -> None:
    shown = lines("apply_create.jsonl")
    assert shown[-1] == "applied: 4 to add, 0 to change, 0 to destroy"
    starts = [s for s in shown if s.endswith(" ...")]
    done = [s for s in shown if s.startswith("created: ")]
    assert starts and len(starts) == len(done)
    assert all(s.startswith("create: ") for s in starts)


def test_plan_stream_shows_only_the_summary() -> None:
    assert lines("plan_create.jsonl") == ["plan: 4 to add, 0 to change, 0 to destroy"]


def test_errored_apply_names_the_resource() -> None:
    assert any(line.startswith("failed: terraform_data.") for line in lines("apply_error.jsonl"))


def test_plain_progress_prefixes_each_line_with_env_and_stage() -> None:
    err = io.StringIO()
    progress = Progress(Console(out=io.StringIO(), err=err, color=False), live=True)
    with progress.running():
        tracker = progress.stage("dev/infra", "applying")
        for event in parse_stream((EVENTS / "apply_create.jsonl").read_text().splitlines()):
            tracker.on_event(event)
        tracker.done("applied")
    out = err.getvalue().splitlines()
    assert out[-1] == "[dev/infra] applied"
    assert out[-2] == "[dev/infra] applied: 4 to add, 0 to change, 0 to destroy"
    assert all(line.startswith("[dev/infra] ") for line in out)


def test_live_progress_on_a_terminal(monkeypatch: object) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    console = Console(out=io.StringIO(), err=err, color=False)
    progress = Progress(console, live=True)
    assert progress.live
    with progress.running():
        tracker = progress.stage("prod/serving", "planning")
        tracker.note("plan: 3 to add, 0 to change, 0 to destroy")
        tracker.done("changes planned")
        progress.say("a line above the display")
    text = err.getvalue()
    assert "prod/serving: changes planned" in text
    assert "a line above the display" in text
