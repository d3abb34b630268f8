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
    import sys

    if sys.argv[1:] in (["--version"], ["-V"]):
        # Said before the command line is imported (click and every command): what a script
        # asks most often costs an interpreter start and no more. The same text as click's.
        from gpuplat import __version__

        try:
            sys.stdout.write(f"gpuplat {__version__}\n")
            sys.stdout.flush()
        except BrokenPipeError:  # `gpuplat --version | true`: end quietly, as Unix tools do
            import os  # already loaded by the interpreter's start

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(141) from None
        raise SystemExit(0)

    if "render" in sys.argv[1:]:
        # A render with nothing to do, answered from gpuplat's records before click and the
        # spec's models load; anything it cannot decide goes on to the full command below.
        try:
            from gpuplat.tree.uptodate import answer

            status = answer(sys.argv[1:])
        except KeyboardInterrupt:
            from gpuplat.interrupt import interrupted

            raise SystemExit(interrupted()) from None
        if status is not None:
            raise SystemExit(status)

    # A render allocates a great many small objects and frees nearly none of them before it
    # ends: collecting the young generation every 700 allocations cost a third of its time.
    gc.set_threshold(100_000, 50, 100)
    try:  # a Ctrl-C while the guard itself loads (signal, enum) is still Python's to raise
        from gpuplat.interrupt import guard

        guard()  # Ctrl-C and SIGTERM (what CI runners cancel with) alike, never inside an import
    except KeyboardInterrupt:
        from gpuplat.interrupt import interrupted

        raise SystemExit(interrupted()) from None
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
