"""The command line: parse options, call one application function, return its exit code.

Only this package imports click. Heavy modules (pydantic, jinja2) are imported inside the
commands so that ``gpuplat --version`` starts fast.
"""

from __future__ import annotations

from gpuplat.cli import cost, moves, project, terraform, vendor
from gpuplat.cli.group import App, cli, main

__all__ = ["App", "cli", "cost", "main", "moves", "project", "terraform", "vendor"]
