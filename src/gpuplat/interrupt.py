"""Ctrl-C, said once: the message and the exit status every way out of a command shares."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import FrameType

INTERRUPTED = 130
"""128 + SIGINT, what a shell reports for a command Ctrl-C stopped (``ExitCode.INTERRUPTED``)."""


def interrupted(*, process: bool = True) -> int:
    """Say "Interrupted." once, and from now on let Ctrl-C be: the command is ending anyway.

    Args:
        process: gpuplat is the process (its console script), not a library call in another
            program's process: a second Ctrl-C is ignored while it ends, and the message goes
            straight to file descriptor 2. Otherwise the caller's signal handling is left alone.

    Returns:
        The exit status to end with (130).
    """
    import sys

    if not process:
        print("Interrupted.", file=sys.stderr, flush=True)
        return INTERRUPTED
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # stderr closed
        os.write(2, b"Interrupted.\n")
    return INTERRUPTED


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait for the end of the block, then end the command as usual.

    For imports (a command's module, loaded when it runs): one cut half-way leaves a module
    that registered some of its commands and is gone from ``sys.modules``, and the import
    machinery's per-module locks taken. After the block, a signal that came during it is raised
    as :class:`KeyboardInterrupt`, the one way every signal that ends gpuplat takes. Outside the
    main thread (where signals cannot be caught) and for a signal already ignored, nothing
    changes.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum: int, frame: object) -> None:
        came.append(signum)

    before = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(sig)
        if handler is not None and handler is not signal.SIG_IGN:
            before[sig] = signal.signal(sig, note)
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    if came:
        raise KeyboardInterrupt


_PENDING = [False]
"""A signal came inside an import and waits for its end."""

_RECHECK_SECONDS = 0.005


def guard() -> None:
    """From now on Ctrl-C and SIGTERM raise :class:`KeyboardInterrupt`, never inside an import.

    Raised inside the import machinery, a KeyboardInterrupt can be swallowed by one of its
    lock callbacks ("Exception ignored in ... _get_module_lock") and the Ctrl-C is lost, or it
    cuts a module's body half-way. A signal that comes during an import is noted, and the
    interrupt is raised at the first check (every few milliseconds, by SIGALRM) that finds no
    import under way. A signal already ignored (a job started with nohup) stays ignored. For
    gpuplat's own process only: it takes SIGALRM.
    """
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _at_a_safe_point)
    signal.signal(signal.SIGALRM, _at_a_safe_point)


def settle() -> None:
    """The command is done and the process ends: Ctrl-C and SIGTERM are no longer taken.

    A signal that came during an import and still waits for the check that raises it is
    raised now, as :class:`KeyboardInterrupt`. Only where :func:`guard` stands guard.
    """
    import signal

    if signal.getsignal(signal.SIGALRM) is not _at_a_safe_point:
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is _at_a_safe_point:
            signal.signal(sig, signal.SIG_IGN)
    if _PENDING[0]:
        _PENDING[0] = False
        raise KeyboardInterrupt


def _at_a_safe_point(signum: int, frame: FrameType | None) -> None:
    import signal

    if signum == signal.SIGALRM and not _PENDING[0]:
        return
    if _importing(frame):
        _PENDING[0] = True
        signal.setitimer(signal.ITIMER_REAL, _RECHECK_SECONDS)
        return
    _PENDING[0] = False
    raise KeyboardInterrupt


def _importing(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False
