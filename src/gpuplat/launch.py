"""The console script's first code: Ctrl-C at any moment after this ends with one "Interrupted."

Importing the command line (click, the commands) takes a noticeable fraction of a second; a
Ctrl-C then would print a traceback of the import. This module imports nothing at all until
it stands guard (not even ``signal``, whose import alone takes milliseconds), and
:func:`gpuplat.interrupt.interrupted` makes sure the message is said once. What it cannot cover is the Python
interpreter's own start, before any of gpuplat's code runs.
"""

from __future__ import annotations


def main() -> None:
    """Console-script entry point (never returns: the command's exit status ends the process)."""
    import gc  # built into the interpreter: nothing to load

    # A render allocates a great many small objects and frees nearly none of them before it
    # ends: collecting the young generation every 700 allocations cost a third of its time.
    gc.set_threshold(100_000, 50, 100)
    try:
        from gpuplat.cli.group import main as run
    except KeyboardInterrupt:
        from gpuplat.interrupt import interrupted

        raise SystemExit(interrupted()) from None
    try:
        run()
    except KeyboardInterrupt:  # between the command's end and the exit
        from gpuplat.interrupt import interrupted

        raise SystemExit(interrupted()) from None
