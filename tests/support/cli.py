"""Run the gpuplat CLI in-process the way a user would, with a pinned environment."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from gpuplat.cli import cli

PINNED_ENV = {"NO_COLOR": "1", "TERM": "dumb", "CI": None, "GPUPLAT_TERRAFORM": None}


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run(*args: str | Path, cwd: Path | None = None) -> Run:
    """Invoke ``gpuplat ARGS`` and capture exit code, stdout and stderr separately."""
    runner = CliRunner(env={k: v for k, v in PINNED_ENV.items() if k != "CI"})
    argv = [str(a) for a in args]
    if cwd is not None:
        argv = ["-C", str(cwd), *argv]
    result = runner.invoke(cli, argv, catch_exceptions=False, prog_name="gpuplat")
    return Run(result.exit_code, result.stdout, result.stderr)
