"""The command line: parse options, call one application function, return its exit code.

This is the only module that imports click. Heavy modules (pydantic, jinja2) are imported inside
the commands so that ``gpuplat --version`` starts fast.
"""

from __future__ import annotations

import datetime
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn

import click

from gpuplat import __version__
from gpuplat.console import Console
from gpuplat.errors import ExitCode, GpuplatError, file_error


@dataclass
class App:
    """What every command gets: the project folder and where to write."""

    root: Path
    console: Console
    debug: bool


class _Group(click.Group):
    """Turns results and errors of every command into exit codes, in one place."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except GpuplatError as exc:
            app = ctx.find_object(App)
            console = app.console if app else Console()
            if app and app.debug:
                traceback.print_exc(file=console.err)
            console.error(exc, strict=bool(ctx.meta.get("strict")))
            ctx.exit(int(exc.exit_code))
        except KeyboardInterrupt:
            Console().say("Interrupted.")
            ctx.exit(int(ExitCode.INTERRUPTED))
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


def _internal_error(console: Console, debug: bool) -> None:
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
    ctx.obj = App(project_dir, Console(color=False if no_color else None), debug)


@cli.command()
@click.option("--example", "-x", default=None, help="Example to start from (see --list).")
@click.option("--list", "list_examples", is_flag=True, help="List the examples and exit.")
@click.option("--force", is_flag=True, help="Overwrite existing files.")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.pass_obj
def init(
    app: App, example: str | None, list_examples: bool, force: bool, directory: Path | None
) -> int:
    """Write a working gpuplat.yaml and envs/ overlays to start from."""
    from gpuplat.app import init as init_app

    if list_examples:
        for name, summary in init_app.list_examples():
            app.console.data(f"{name:<16} {summary}")
        return 0
    target = directory if directory is not None else app.root
    result = init_app.init_project(target, example, force=force)
    for path in result.written:
        app.console.say(f"wrote {path}")
    app.console.say(
        f"Next: cd {target} && gpuplat validate" if directory else "Next: gpuplat validate"
    )
    return 0


@cli.command()
@click.option("-e", "--env", "envs", multiple=True, help="Environment(s) to check (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@click.option("--strict", is_flag=True, help="Warnings are errors.")
@click.pass_context
def validate(ctx: click.Context, envs: tuple[str, ...], as_json: bool, strict: bool) -> int:
    """Check the spec and every overlay; report every problem at once."""
    from gpuplat.app.validate import validate_project

    app: App = ctx.obj
    ctx.meta["strict"] = strict
    result = validate_project(app.root, envs, strict=strict)
    if as_json:
        app.console.json(result.to_json())
    else:
        if result.diagnostics:
            app.console.diagnostics(result.diagnostics, strict=strict)
        if result.ok:
            app.console.say(result.summary())
    return int(result.exit_code)


@cli.command()
@click.option("-e", "--env", "envs", multiple=True, help="Environment(s) to render (default: all).")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option(
    "--check", is_flag=True, help="Exit 5 when the tree is stale or a module was edited by hand."
)
@click.option(
    "--manifests",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Also write plain Kubernetes YAML per env and cluster into this folder.",
)
@click.pass_obj
def render(
    app: App, envs: tuple[str, ...], dry_run: bool, check: bool, manifests: Path | None
) -> int:
    """Render versioned modules and per-environment roots from the spec."""
    from gpuplat.app.render import render_project

    result = render_project(app.root, envs, dry_run=dry_run, check=check, manifests=manifests)
    if result.manifests_written:
        app.console.say(f"  wrote {result.manifests} manifest file(s) to {manifests}")
    if result.warnings:
        app.console.diagnostics(result.warnings)
    verb = "would " if dry_run else ""
    for folder in result.new_module_folders:
        app.console.say(f"  {verb}create {folder}/")
    for change in result.changes:
        app.console.say(f"  {verb}{change.action} {change.path}")
    for path in result.edited_roots:
        app.console.say(f"Warning: {path} was edited by hand; gpuplat owns it and rewrote it")
    envs_text = ", ".join(result.envs)
    if check:
        app.console.say(f"up to date: {envs_text}")
    elif result.nothing_to_do:
        app.console.say(f"up to date: {envs_text} (nothing written)")
    else:
        count = len(result.changes) + len(result.new_module_folders)
        done = "would change" if dry_run else "changed"
        app.console.say(f"rendered {envs_text}: {done} {count} item{'s' if count != 1 else ''}")
    return 0


@cli.command()
@click.option("--overlay", is_flag=True, help="Schema of an envs/<env>.yaml overlay instead.")
@click.option("--cost", "of_cost", is_flag=True, help="Schema of `gpuplat cost --json` instead.")
@click.pass_obj
def schema(app: App, overlay: bool, of_cost: bool) -> int:
    """Print the JSON Schema of the spec on stdout (for editors and CI)."""
    if of_cost:
        from gpuplat.cost.schema import cost_schema_text

        app.console.data(cost_schema_text().rstrip("\n"))
        return 0
    from gpuplat.spec.schema import spec_schema_text

    app.console.data(spec_schema_text(overlay=overlay).rstrip("\n"))
    return 0


@cli.command()
@click.argument("envs", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON on stdout.")
@click.option(
    "--stranded", "with_stranded", is_flag=True, help="Report stranded GPUs and their waste."
)
@click.option(
    "--infracost-usage",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Also write an infracost usage file with these node counts ({env} in FILE: one per env).",
)
@click.option(
    "--at",
    "level",
    type=click.Choice(["ceiling", "floor"]),
    default="ceiling",
    show_default=True,
    help="Node counts of the infracost usage file.",
)
@click.pass_obj
def cost(
    app: App,
    envs: tuple[str, ...],
    as_json: bool,
    with_stranded: bool,
    infracost_usage: Path | None,
    level: str,
) -> int:
    """What ENV(s) cost (default: all): per cluster and pool, at floor, expected and ceiling."""
    from gpuplat.app.cost import cost_project

    result = cost_project(
        app.root,
        envs,
        infracost_usage=infracost_usage,
        level="floor" if level == "floor" else "ceiling",
    )
    if as_json:
        app.console.json(result.to_json())
    else:
        app.console.data("\n".join(result.lines(with_stranded=with_stranded)))
    for path in result.written:
        app.console.say(f"wrote {path}")
    return 0


@cli.command()
@click.argument("env", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["mermaid", "dot", "svg"]),
    default="mermaid",
    show_default=True,
    help="mermaid (pull requests, READMEs), dot, or svg through Graphviz' dot.",
)
@click.pass_obj
def graph(app: App, env: str | None, fmt: str) -> int:
    """Draw ENV (default: every environment): clusters, pools, workloads and their cost."""
    from gpuplat.app.graph import graph_project

    chosen: Literal["mermaid", "dot", "svg"] = (
        "svg" if fmt == "svg" else "dot" if fmt == "dot" else "mermaid"
    )
    app.console.data(graph_project(app.root, env, chosen).decode().rstrip("\n"))
    return 0


_TERRAFORM_OPTION = click.option(
    "--terraform",
    "terraform_bin",
    default=None,
    metavar="PATH",
    help="terraform or tofu binary (default: $GPUPLAT_TERRAFORM, then PATH).",
)


def _confirmer(app: App, word: str) -> Callable[[str], bool] | None:
    """A prompt that wants ``word`` typed back, or None when nobody can answer it."""
    if not sys.stdin.isatty() or not app.console.interactive:
        return None

    def ask(question: str) -> bool:
        answer: str = click.prompt(question, default="", show_default=False, err=True)
        return answer.strip() == word

    return ask


def _report_errors(app: App, errors: list[GpuplatError]) -> int:
    for error in errors:
        app.console.error(error)
    return int(errors[0].exit_code) if errors else 0


@cli.command()
@click.argument("envs", nargs=-1, required=True)
@click.option("--stage", type=click.Choice(["infra", "platform", "serving"]), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the plan summary as JSON on stdout.")
@click.option("--check", is_flag=True, help="Refuse to plan when the rendered tree is stale.")
@click.option("--parallel", default=4, show_default=True, help="Environments planned at once.")
@_TERRAFORM_OPTION
@click.pass_obj
def plan(
    app: App,
    envs: tuple[str, ...],
    stage: str | None,
    as_json: bool,
    check: bool,
    parallel: int,
    terraform_bin: str | None,
) -> int:
    """Render if needed, then plan every stage of ENV(s); exit 10 when there are changes."""
    from gpuplat.app.plan import plan_envs
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    binary = terraform_binary(terraform_bin)
    progress = Progress(app.console, live=not as_json)
    results = plan_envs(
        app.root,
        envs,
        binary=binary,
        progress=progress,
        stage=stage,
        check=check,
        parallel=parallel,
    )
    if as_json:
        app.console.json([r.to_json() for r in results])
    else:
        for result in results:
            if not result.stages:
                continue
            app.console.data(f"Plan for {result.env}:")
            for summary in result.stages:
                app.console.data("\n".join(summary.lines()))
    errors = [r.error for r in results if r.error is not None]
    if errors:
        return _report_errors(app, errors)
    return int(ExitCode.CHANGES) if any(r.has_changes for r in results) else 0


@cli.command()
@click.argument("env")
@click.option(
    "--allow-destroy",
    multiple=True,
    metavar="NAME",
    help="Allow destroying/replacing this cluster, pool or workload.",
)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (protected environments).")
@_TERRAFORM_OPTION
@click.pass_obj
def apply(
    app: App, env: str, allow_destroy: tuple[str, ...], yes: bool, terraform_bin: str | None
) -> int:
    """Apply the saved plans of ENV (made by `gpuplat plan`), and nothing else."""
    from gpuplat.app.apply import apply_env
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    result = apply_env(
        app.root,
        env,
        binary=terraform_binary(terraform_bin),
        progress=Progress(app.console, live=True),
        allow_destroy=allow_destroy,
        yes=yes,
        confirm=_confirmer(app, env),
    )
    if result.applied:
        app.console.say(f"applied {env}: {', '.join(result.applied)}")
    else:
        app.console.say(f"nothing to apply in {env}: the saved plans have no changes")
    if result.waiting:
        app.console.say(
            f"next: `gpuplat plan {env}` ({', '.join(result.waiting)} waited for this apply)"
        )
    return 0


@cli.command()
@click.argument("env")
@click.option("--stage", type=click.Choice(["infra", "platform", "serving"]), default=None)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_TERRAFORM_OPTION
@click.pass_obj
def destroy(app: App, env: str, stage: str | None, yes: bool, terraform_bin: str | None) -> int:
    """Destroy ENV, its stages in reverse order, after one confirmation."""
    from gpuplat.app.lifecycle import destroy_env
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    result = destroy_env(
        app.root,
        env,
        binary=terraform_binary(terraform_bin),
        progress=Progress(app.console, live=True),
        stage=stage,
        yes=yes,
        confirm=_confirmer(app, env),
    )
    for summary in result.summaries:
        app.console.data("\n".join(summary.lines()))
    app.console.say(f"destroyed {env}: {', '.join(result.destroyed) or 'nothing'}")
    return 0


@cli.command()
@click.argument("envs", nargs=-1, required=True)
@click.option("--stage", type=click.Choice(["infra", "platform", "serving"]), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print what drifted as JSON on stdout.")
@click.option("--parallel", default=4, show_default=True)
@_TERRAFORM_OPTION
@click.pass_obj
def drift(
    app: App,
    envs: tuple[str, ...],
    stage: str | None,
    as_json: bool,
    parallel: int,
    terraform_bin: str | None,
) -> int:
    """Refresh-only plan of ENV(s): exit 10 when the real world drifted from the state."""
    from gpuplat.app.lifecycle import drift_envs
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    results = drift_envs(
        app.root,
        envs,
        binary=terraform_binary(terraform_bin),
        progress=Progress(app.console, live=not as_json),
        stage=stage,
        parallel=parallel,
    )
    if as_json:
        app.console.json(
            [{"environment": r.env, "drifted": r.drifted, "no_state": r.no_state} for r in results]
        )
    else:
        for result in results:
            for stage_name in result.no_state:
                app.console.data(f"{result.env}/{stage_name}: no state (nothing applied yet)")
            for stage_name, items in result.drifted.items():
                app.console.data(f"{result.env}/{stage_name}: " + ("; ".join(items) or "no drift"))
    errors = [r.error for r in results if r.error is not None]
    if errors:
        return _report_errors(app, errors)
    return int(ExitCode.CHANGES) if any(r.has_drift for r in results) else 0


@cli.command()
@click.argument("env")
@click.option("--stage", type=click.Choice(["infra", "platform", "serving"]), default=None)
@click.option("--show-sensitive", is_flag=True, help="Print sensitive values too.")
@_TERRAFORM_OPTION
@click.pass_obj
def output(
    app: App, env: str, stage: str | None, show_sensitive: bool, terraform_bin: str | None
) -> int:
    """Print the outputs of every stage of ENV as JSON."""
    from gpuplat.app.lifecycle import outputs
    from gpuplat.workspace import terraform_binary

    values = outputs(
        app.root,
        env,
        binary=terraform_binary(terraform_bin),
        stage=stage,
        show_sensitive=show_sensitive,
    )
    app.console.json(values)
    return 0


def main() -> NoReturn:
    """Console-script entry point."""
    # CI runners cancel with SIGTERM: take the same graceful path as Ctrl-C, so Terraform is
    # stopped cleanly and its state lock released.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    cli.main(prog_name="gpuplat")
    raise SystemExit(0)  # pragma: no cover - cli.main always exits in standalone mode
