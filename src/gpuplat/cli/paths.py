"""One rule for every path on the command line: a relative path starts where the person is.

``gpuplat -C DIR ...`` reads as "cd DIR, then run gpuplat ...": relative paths start in ``DIR``
when ``-C`` is given, else in the working folder, even when the project was found in a folder
further up (run from ``envs/``). Absolute paths are taken as they are. Every command's path
argument or option goes through :class:`HerePath` (or the callbacks :func:`path_or_word` and :func:`program`
for string options), so no command has a rule of its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click


def start(ctx: click.Context | None) -> Path | None:
    """Where relative paths start for this command line (None: the working folder)."""
    if ctx is None:
        return None
    here = getattr(ctx.find_root().obj, "here", None)
    return here if isinstance(here, Path) and str(here) != "." else None


def resolve(ctx: click.Context | None, value: str | os.PathLike[str]) -> str:
    """``value`` as a path from where the person is (see the module's rule)."""
    here = start(ctx)
    text = os.fspath(value)
    if here is None or Path(text).is_absolute():
        return text
    return str(here / text)


class HerePath(click.Path):
    """A ``click.Path`` whose relative values start in ``-C DIR`` when given, else here."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (str, os.PathLike)):
            value = resolve(ctx, value)
        return super().convert(value, param, ctx)


def path_or_word(*words: str) -> Any:
    """Callback of a string option that takes a path or one of ``words`` (kept as they are)."""

    def callback(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
        return value if value is None or value in words else resolve(ctx, value)

    return callback


def program(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """Callback of an option naming a program: a bare name (no ``/``) is looked up on PATH,
    a path follows the rule."""
    return value if value is None or "/" not in value else resolve(ctx, value)
