"""Shell habits the command line meets halfway: `-C` anywhere, the project found from a
subfolder, and a hint for the other form of naming environments."""

from __future__ import annotations

from pathlib import Path

import click

from gpuplat.errors import GpuplatError

SPEC_FILE = "gpuplat.yaml"


def hoist_project_option(args: list[str]) -> list[str]:
    """``gpuplat plan dev -C ../p`` as ``gpuplat -C ../p plan dev``: -C is global, put anywhere.

    Only tokens after the first word that is not an option move; ``--`` ends the search.
    """
    out = list(args)
    start = _command_index(out)
    if start is None:
        return out
    moved: list[str] = []
    i = start + 1
    while i < len(out):
        token = out[i]
        if token == "--":
            break
        if token == "-C" and i + 1 < len(out):
            moved += out[i : i + 2]
            del out[i : i + 2]
            continue
        if token.startswith("-C") and len(token) > 2:
            moved.append(token)
            del out[i]
            continue
        i += 1
    return moved + out


def _command_index(args: list[str]) -> int | None:
    i = 0
    while i < len(args):
        token = args[i]
        if token == "-C":
            i += 2
            continue
        if not token.startswith("-"):
            return i
        i += 1
    return None


def project_root(given: Path, explicit: bool, command: str | None) -> Path:
    """The project folder: ``-C DIR`` as given, else the nearest folder up holding gpuplat.yaml.

    From ``envs/`` (or any folder inside a project) gpuplat finds the project as git finds its
    repository. ``init`` writes a new project where it is asked to, so it never looks up.

    Raises:
        GpuplatError: ``-C`` names a folder that does not exist.
    """
    if explicit:
        if not given.exists() and command != "init":
            raise GpuplatError(
                f"-C {given}: no such folder",
                hint="check the path; `gpuplat init DIR` creates a new project",
            )
        return given
    if command == "init" or (given / SPEC_FILE).is_file():
        return given
    here = given.resolve()
    for folder in here.parents:
        if (folder / SPEC_FILE).is_file():
            return folder
    return given


def usage_hint(exc: click.UsageError, command: click.Command | None) -> click.UsageError:
    """The usage error with the other form added: ``plan -e dev`` -> ``plan dev``, and back."""
    if command is None:
        return exc
    positional = any(
        isinstance(p, click.Argument) and p.name in ("env", "envs") for p in command.params
    )
    takes_e = any(isinstance(p, click.Option) and "-e" in p.opts for p in command.params)
    name = command.name or "COMMAND"
    hint = ""
    if isinstance(exc, click.NoSuchOption) and exc.option_name in ("-e", "--env") and positional:
        hint = f"{name} takes environments as arguments: gpuplat {name} dev"
    elif exc.format_message().startswith("Got unexpected extra argument") and takes_e:
        hint = f"{name} takes environments with -e: gpuplat {name} -e dev"
    if not hint:
        return exc
    return click.UsageError(f"{exc.format_message()}\nHint: {hint}", ctx=exc.ctx)
