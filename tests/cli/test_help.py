"""Help a newcomer reads: every option says what it does, every command is listed, completion
offers every subcommand, and no version number that reads like another one."""

from __future__ import annotations

import os
import subprocess
import sys

import click

from gpuplat.cli import cli
from tests.support.cli import run


def commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    for name, command in group.commands.items():
        out.append((f"{prefix}{name}", command))
        if isinstance(command, click.Group):
            out += commands(command, f"{prefix}{name} ")
    return out


def test_every_option_has_help() -> None:
    missing = [
        f"gpuplat {path} {param.opts[0]}"
        for path, command in commands(cli)
        for param in command.params
        if isinstance(param, click.Option) and not param.help
    ]
    assert missing == []


def test_vendor_lists_and_completes_copy() -> None:
    listed = run("vendor", "--help")
    assert listed.exit_code == 0
    assert "  copy " in listed.stdout and "  upgrade " in listed.stdout
    env = {
        **os.environ,
        "_GPUPLAT_COMPLETE": "bash_complete",
        "COMP_WORDS": "gpuplat vendor ",
        "COMP_CWORD": "2",
    }
    done = subprocess.run(
        [sys.executable, "-m", "gpuplat"], env=env, capture_output=True, text=True, check=False
    )
    offered = {line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line}
    assert {"copy", "upgrade"} <= offered, done.stdout


def test_migrate_names_the_layout_not_a_version() -> None:
    """The help said "gpuplat 0.1", read as a version older than 0.1.0, the one installed."""
    said = run("migrate", "--help").stdout
    assert "gpuplat 0.1" not in said
    assert "envs/ENV/STAGE/" in said
