"""The command group: global options, and errors and results turned into exit codes in one place."""

from __future__ import annotations

import importlib
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import click
from click.core import ParameterSource

from gpuplat import __version__
from gpuplat.cli.habits import hoist_project_option, project_root, usage_hint
from gpuplat.console import Console
from gpuplat.errors import ExitCode, GpuplatError, file_error
from gpuplat.interrupt import guard, held, interrupted, settle


@dataclass
class App:
    """What every command gets: the project folder and where to write."""

    root: Path
    console: Console
    debug: bool
    here: Path = Path()
    """Where relative paths on the command line start: ``-C DIR`` when given (as if the person
    had cd'ed there), else the working folder, even when the project was found further up."""


_STANDALONE = [False]
"""Whether :func:`main` runs: gpuplat is the process, not a call inside another program's."""


COMMANDS = {
    "apply": "terraform",
    "conformance": "project",
    "converge": "moves",
    "cost": "cost",
    "destroy": "terraform",
    "drift": "terraform",
    "failover": "moves",
    "graph": "cost",
    "init": "project",
    "migrate": "terraform",
    "output": "terraform",
    "place": "project",
    "plan": "terraform",
    "prices": "cost",
    "render": "project",
    "schema": "project",
    "validate": "project",
    "vendor": "vendor",
}
"""Each command and the module of ``gpuplat.cli`` that defines it, imported when it is asked for."""


class _Group(click.Group):
    """Turns results and errors of every command into exit codes, in one place.

    Commands are loaded lazily: :data:`COMMANDS` names them, and a command's module is
    imported (whole, a signal waiting for its end) the first time the command is looked up.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if cmd_name not in self.commands and module is not None:
            with held():
                importlib.import_module(f"gpuplat.cli.{module}")
        return super().get_command(ctx, cmd_name)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        # Ctrl-C while the command line is parsed: the same one "Interrupted." as later on,
        # not click's "Aborted!" and exit 1.
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            raise SystemExit(interrupted(process=_STANDALONE[0])) from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.parent is None:
            args = hoist_project_option(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return self._invoke(ctx)
            finally:
                if _STANDALONE[0] and ctx.parent is None:
                    # The command is done: a Ctrl-C from here on would reach click's own
                    # handler ("Aborted!", exit 1), so gpuplat stops taking it.
                    settle()
        except KeyboardInterrupt:
            # One that came during an import and waited for its end, raised by settle or by
            # the few-millisecond check between the command's end and settle.
            ctx.exit(interrupted(process=_STANDALONE[0]))

    def _invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except click.UsageError as exc:
            raise usage_hint(exc, exc.ctx.command if exc.ctx else None) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except GpuplatError as exc:
            app = ctx.find_object(App)
            console = app.console if app else Console()
            if app and app.debug:
                import traceback

                traceback.print_exc(file=console.err)
            console.error(exc, strict=bool(ctx.meta.get("strict")))
            ctx.exit(int(exc.exit_code))
        except KeyboardInterrupt:
            ctx.exit(interrupted(process=_STANDALONE[0]))
        except BrokenPipeError:
            # The reader went away (`gpuplat graph | head -1`): end quietly, as Unix tools do.
            ctx.exit(closed_pipe())
        except OSError as exc:
            app = ctx.find_object(App)
            console = app.console if app else Console()
            if exc.filename is None:
                _internal_error(console, bool(app and app.debug))
                ctx.exit(int(ExitCode.INTERNAL))
            # A file of the user's that the system refused: theirs to fix, not a bug.
            console.error(file_error(exc, "continue"))
            ctx.exit(int(ExitCode.ERROR))
        except Exception:
            app = ctx.find_object(App)
            _internal_error(app.console if app else Console(), bool(app and app.debug))
            ctx.exit(int(ExitCode.INTERNAL))
        if isinstance(result, int) and result:
            ctx.exit(result)
        return result


CLOSED_PIPE = 128 + int(signal.SIGPIPE)
"""Exit status of a command whose stdout was closed by its reader: what a shell reports for a
Unix tool that SIGPIPE ended (141), so `set -o pipefail` sees it and nothing else does."""


def closed_pipe() -> int:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again; return 141."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass
    return CLOSED_PIPE


def _internal_error(console: Console, debug: bool) -> None:
    import datetime  # the crash path alone needs these
    import tempfile
    import traceback

    text = traceback.format_exc()
    if debug:
        console.say(text)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    fd, name = tempfile.mkstemp(prefix=f"gpuplat-crash-{stamp}-", suffix=".log")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(f"gpuplat {__version__}\nargv: {sys.argv!r}\n\n{text}")
    console.error(
        GpuplatError(
            "internal error: gpuplat hit a bug",
            hint=f"the traceback is in {name}; please attach it to a bug report",
        )
    )


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, "--version", "-V", prog_name="gpuplat", message="%(prog)s %(version)s"
)
@click.option(
    "-C",
    "project_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project folder (holds gpuplat.yaml).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.option("--no-color", is_flag=True, help="No colour (also: NO_COLOR=1).")
@click.pass_context
def cli(ctx: click.Context, project_dir: Path, debug: bool, no_color: bool) -> None:
    """gpuplat: one spec of a GPU platform -> versioned Terraform -> plan/apply per environment."""
    explicit = ctx.get_parameter_source("project_dir") is not ParameterSource.DEFAULT
    console = Console(color=False if no_color else None)
    ctx.obj = App(project_dir, console, debug, project_dir)
    ctx.obj.root = project_root(project_dir, explicit, ctx.invoked_subcommand)


def main() -> NoReturn:
    """Console-script entry point."""
    # CI runners cancel with SIGTERM: take the same graceful path as Ctrl-C, so Terraform is
    # stopped cleanly and its state lock released.
    guard()
    # gpuplat uses no pydantic plugin: skip pydantic's scan of every installed package's entry
    # points for them (pydantic's documented switch; a value the user set is kept).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _STANDALONE[0] = True
    try:
        cli.main(prog_name="gpuplat")
    except BrokenPipeError:  # help or version text written into a closed pipe
        raise SystemExit(closed_pipe()) from None
    raise SystemExit(0)  # pragma: no cover - cli.main always exits in standalone mode
