"""The terraform child process: spawn it, stream its stdout, keep a stderr tail, stop it gently."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from gpuplat.errors import ToolMissingError

TERMINATE_GRACE_SECONDS = 10.0
"""After the second Ctrl-C (SIGTERM), how long terraform gets before it is killed."""
EOF_GRACE_SECONDS = 5.0
"""How long to wait for stdout to close once terraform exited (a grandchild may hold it)."""
_POLL_SECONDS = 0.2


@dataclass(frozen=True, slots=True)
class Exit:
    """How the child ended."""

    returncode: int
    stderr_tail: str
    interrupts: int
    """How many Ctrl-C arrived while it ran: 1 = SIGINT forwarded, 2 = terminated, 3+ = killed."""


def _pump(stream: IO[str], sink: Callable[[str | None], None]) -> None:
    # Reader threads must never raise: an uncaught thread exception would be printed.
    try:
        for line in stream:
            sink(line)
    except (OSError, ValueError):
        pass
    finally:
        sink(None)


def _pump_tail(stream: IO[str], tail: deque[str]) -> None:
    try:
        for line in stream:
            tail.append(line.rstrip("\n"))
    except (OSError, ValueError):
        pass


def _signal(proc: subprocess.Popen[str], sig: signal.Signals, *, group: bool = False) -> None:
    """Signal terraform, or its whole process group (terraform, providers, local-exec)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        if group:
            # The child leads its own group (process_group=0), so its pid is the group id.
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)


def _end_leftovers(group: int) -> None:
    """After an interrupted run, stop what terraform left behind in its process group."""
    # Terraform stops local-exec by killing its shell only, so a command the shell had already
    # forked (e.g. `sleep`) outlives it. The group outlives terraform while such orphans live
    # in it, so its id cannot have been reused yet.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGTERM)


def _escalate(proc: subprocess.Popen[str], interrupts: int) -> None:
    # The child runs in its own process group, so the terminal's Ctrl-C reaches it only through
    # here, exactly once per press: terraform treats a second SIGINT (or a SIGTERM) as "exit
    # now, data loss may occur". SIGINT goes to terraform alone: signalling its whole group
    # was seen to make terraform count two interrupts and skip its graceful stop.
    # First Ctrl-C: SIGINT (terraform stops providers, persists state, releases its lock).
    # Second: SIGTERM. Then SIGKILL for the whole group.
    if interrupts == 1:
        _signal(proc, signal.SIGINT)
    elif interrupts == 2:
        _signal(proc, signal.SIGTERM)
    else:
        _signal(proc, signal.SIGKILL, group=True)


def run_child(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    on_line: Callable[[str], None],
    on_interrupt: Callable[[int], None] | None = None,
    tail_lines: int = 200,
) -> Exit:
    """Run ``argv`` and feed each stdout line to ``on_line`` on the calling thread.

    Ctrl-C (KeyboardInterrupt) while it runs is not re-raised: the first is forwarded to the
    child as SIGINT and the child is awaited, the second terminates it, a third kills it;
    ``Exit.interrupts`` reports how many arrived. Any other exception from ``on_line`` stops the
    child the same gentle way and is then re-raised.

    Raises:
        ToolMissingError: The binary cannot be started.
    """
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            process_group=0,
        )
    except OSError as exc:
        raise ToolMissingError(
            f"cannot run {argv[0]}: {exc.strerror or exc}",
            hint="Check that the terraform binary still exists and is executable.",
        ) from exc
    assert proc.stdout is not None and proc.stderr is not None
    lines: queue.Queue[str | None] = queue.Queue()
    tail: deque[str] = deque(maxlen=tail_lines)
    readers = [
        threading.Thread(target=_pump, args=(proc.stdout, lines.put), daemon=True),
        threading.Thread(target=_pump_tail, args=(proc.stderr, tail), daemon=True),
    ]
    for reader in readers:
        reader.start()
    interrupts = 0
    deadline: float | None = None
    exited_at: float | None = None
    while True:
        try:
            if deadline is not None and time.monotonic() > deadline:
                _signal(proc, signal.SIGKILL, group=True)
                deadline = None
            try:
                line = lines.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                if proc.poll() is not None:
                    exited_at = exited_at or time.monotonic()
                    if time.monotonic() - exited_at > EOF_GRACE_SECONDS:
                        break
                continue
            if line is None:
                break
            on_line(line)
        except KeyboardInterrupt:
            interrupts += 1
            _escalate(proc, interrupts)
            if interrupts == 2:
                deadline = time.monotonic() + TERMINATE_GRACE_SECONDS
            if on_interrupt is not None:
                on_interrupt(interrupts)
        except BaseException:
            _stop_quietly(proc)
            _end_leftovers(proc.pid)
            raise
    returncode, interrupts = _wait(proc, interrupts)
    if interrupts:
        _end_leftovers(proc.pid)
    for reader in readers:
        reader.join(timeout=EOF_GRACE_SECONDS)
    if not any(reader.is_alive() for reader in readers):
        # Closing a pipe under a thread still reading it would make that thread raise; a
        # grandchild that inherited the pipe may keep it open, so then leave it to the GC.
        proc.stdout.close()
        proc.stderr.close()
    return Exit(returncode=returncode, stderr_tail="\n".join(tail), interrupts=interrupts)


def _wait(proc: subprocess.Popen[str], interrupts: int) -> tuple[int, int]:
    while True:
        try:
            return proc.wait(), interrupts
        except KeyboardInterrupt:
            interrupts += 1
            _escalate(proc, interrupts)


def _stop_quietly(proc: subprocess.Popen[str]) -> None:
    """Stop the child after an error of our own: SIGINT first so it can release its lock."""
    _signal(proc, signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        _signal(proc, signal.SIGKILL, group=True)
        proc.wait()
