"""Ctrl-C, said once: the message and the exit status every way out of a command shares."""

from __future__ import annotations

import contextlib

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
