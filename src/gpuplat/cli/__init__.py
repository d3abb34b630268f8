"""The command line: parse options, call one application function, return its exit code.

Only this package imports click. A command's module is imported when that command runs (or a
help text lists it), and heavy modules (pydantic, jinja2) inside the commands themselves, so that
``gpuplat validate`` loads none of the other commands and ``gpuplat --version`` starts fast.
"""

from __future__ import annotations

from gpuplat.cli.group import App, cli, main

__all__ = ["App", "cli", "main"]
