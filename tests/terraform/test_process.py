"""The child-process layer: streaming, stderr tail, Ctrl-C escalation, with Python children."""

# The real-terraform SIGINT path is in test_runner.py; these children only stand in where
# terraform cannot be made to misbehave on purpose (ignoring SIGINT, flooding stderr).

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from gpuplat.errors import ToolMissingError
from gpuplat.terraform.process import run_child

CHILD = """\
import signal, sys, time
mode = sys.argv[1]
def on_int(*_):
    print("got SIGINT", flush=True)
    if mode == "graceful":
        print("stopped", flush=True)
        sys.exit(1)
signal.signal(signal.SIGINT, on_int)
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 0):
    print(f"err {i}", file=sys.stderr)
print("ready", flush=True)
if mode == "quick":
    sys.exit(0)
while True:
    time.sleep(0.05)
"""


@pytest.fixture
def child(tmp_path: Path) -> Callable[..., list[str]]:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    return lambda *args: [sys.executable, str(script), *args]


def ctrl_c() -> None:
    """What a terminal's Ctrl-C does to gpuplat: SIGINT to this process, KeyboardInterrupt."""
    os.kill(os.getpid(), signal.SIGINT)


@pytest.fixture(autouse=True)
def _main_thread_with_default_sigint() -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("SIGINT is only delivered to the main thread")
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("a non-default SIGINT handler is installed")


def test_streams_lines_and_keeps_a_bounded_stderr_tail(
    child: Callable[..., list[str]], tmp_path: Path
) -> None:
    lines: list[str] = []
    done = run_child(
        child("quick", "500"), cwd=tmp_path, env=os.environ, on_line=lines.append, tail_lines=3
    )
    assert lines == ["ready\n"]
    assert (done.returncode, done.interrupts) == (0, 0)
    assert done.stderr_tail == "err 497\nerr 498\nerr 499"


def test_first_ctrl_c_is_forwarded_and_the_child_awaited(
    child: Callable[..., list[str]], tmp_path: Path
) -> None:
    lines: list[str] = []
    counts: list[int] = []

    def on_line(line: str) -> None:
        lines.append(line.strip())
        if line.strip() == "ready":
            ctrl_c()

    done = run_child(
        child("graceful"), cwd=tmp_path, env=os.environ, on_line=on_line, on_interrupt=counts.append
    )
    # The child saw SIGINT exactly once and finished on its own terms.
    assert lines == ["ready", "got SIGINT", "stopped"]
    assert (done.returncode, done.interrupts, counts) == (1, 1, [1])


def test_second_ctrl_c_terminates(child: Callable[..., list[str]], tmp_path: Path) -> None:
    lines: list[str] = []

    def on_line(line: str) -> None:
        lines.append(line.strip())
        ctrl_c()  # on "ready" and again on "got SIGINT": the child ignores the first

    done = run_child(child("stubborn"), cwd=tmp_path, env=os.environ, on_line=on_line)
    assert lines == ["ready", "got SIGINT"]
    assert (done.returncode, done.interrupts) == (-signal.SIGTERM, 2)


def test_an_error_in_the_callback_stops_the_child_and_propagates(
    child: Callable[..., list[str]], tmp_path: Path
) -> None:
    def on_line(line: str) -> None:
        raise RuntimeError("callback bug")

    with pytest.raises(RuntimeError, match="callback bug"):
        run_child(child("graceful"), cwd=tmp_path, env=os.environ, on_line=on_line)


def test_a_binary_that_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(ToolMissingError, match=r"cannot run .*/nope"):
        run_child([str(tmp_path / "nope")], cwd=tmp_path, env=os.environ, on_line=print)
