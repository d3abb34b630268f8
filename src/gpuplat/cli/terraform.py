"""Commands that run Terraform on an environment's roots: plan, apply, destroy, drift, output."""

from __future__ import annotations

import click

from gpuplat.cli.complete import complete_envs
from gpuplat.cli.group import App, cli
from gpuplat.cli.options import TERRAFORM_OPTION, confirmer
from gpuplat.errors import ExitCode, GpuplatError

_CLUSTER_OPTION = click.option(
    "--cluster",
    "clusters",
    multiple=True,
    metavar="NAME",
    help="Only this cluster's roots (repeatable; default: every cluster). Each cluster has its "
    "own roots and state, so one cloud runs with only its own credentials.",
)
_STAGE_OPTION = click.option(
    "--stage",
    type=click.Choice(["infra", "platform", "serving"]),
    default=None,
    help="Only this stage (default: every stage, in order infra, platform, serving).",
)
_ROOT_OPTION = click.option(
    "--stage",
    type=click.Choice(["infra", "platform", "serving", "door"]),
    default=None,
    help="Only this stage (default: every stage, in order infra, platform, serving, and the "
    "Cloud DNS front-door roots, `door`, after them; destroy goes the other way).",
)


def _report_errors(app: App, errors: list[GpuplatError]) -> int:
    for error in errors:
        app.console.error(error)
    return int(errors[0].exit_code) if errors else 0


@cli.command()
@click.argument("envs", nargs=-1, required=True, shell_complete=complete_envs)
@_ROOT_OPTION
@_CLUSTER_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the plan summary as JSON on stdout.")
@click.option("--check", is_flag=True, help="Refuse to plan when the rendered tree is stale.")
@click.option(
    "--parallel",
    default=4,
    show_default=True,
    help="Clusters (of any environment) planned at once.",
)
@TERRAFORM_OPTION
@click.pass_obj
def plan(
    app: App,
    envs: tuple[str, ...],
    stage: str | None,
    clusters: tuple[str, ...],
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
        clusters=clusters,
        check=check,
        parallel=parallel,
    )
    if as_json:
        app.console.json([r.to_json() for r in results])
    else:
        for result in results:
            if not result.stages:
                continue
            app.console.data(f"Plan for {result.env}, cluster {result.cluster}:")
            for summary in result.stages:
                app.console.data("\n".join(summary.lines()))
    errors = [r.error for r in results if r.error is not None]
    if errors:
        return _report_errors(app, errors)
    return int(ExitCode.CHANGES) if any(r.has_changes for r in results) else 0


@cli.command()
@click.argument("env", shell_complete=complete_envs)
@click.option(
    "--allow-destroy",
    multiple=True,
    metavar="NAME",
    help="Allow destroying/replacing this cluster, pool or workload.",
)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (protected environments).")
@_CLUSTER_OPTION
@TERRAFORM_OPTION
@click.pass_obj
def apply(
    app: App,
    env: str,
    allow_destroy: tuple[str, ...],
    yes: bool,
    clusters: tuple[str, ...],
    terraform_bin: str | None,
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
        clusters=clusters,
        allow_destroy=allow_destroy,
        yes=yes,
        confirm=confirmer(app, env),
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
@click.argument("env", shell_complete=complete_envs)
@_ROOT_OPTION
@_CLUSTER_OPTION
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@TERRAFORM_OPTION
@click.pass_obj
def destroy(
    app: App,
    env: str,
    stage: str | None,
    clusters: tuple[str, ...],
    yes: bool,
    terraform_bin: str | None,
) -> int:
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
        clusters=clusters,
        yes=yes,
        confirm=confirmer(app, env),
    )
    for where in result.no_state:
        app.console.data(f"{env}/{where}: no state (nothing applied yet)")
    for summary in result.summaries:
        app.console.data(f"{env}, cluster {summary.cluster}:")
        app.console.data("\n".join(summary.lines()))
    app.console.say(f"destroyed {env}: {', '.join(result.destroyed) or 'nothing'}")
    return 0


@cli.command()
@click.argument("envs", nargs=-1, required=True, shell_complete=complete_envs)
@_STAGE_OPTION
@_CLUSTER_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print what drifted as JSON on stdout.")
@click.option(
    "--parallel",
    default=4,
    show_default=True,
    help="Clusters (of any environment) checked at once.",
)
@TERRAFORM_OPTION
@click.pass_obj
def drift(
    app: App,
    envs: tuple[str, ...],
    stage: str | None,
    clusters: tuple[str, ...],
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
        clusters=clusters,
        parallel=parallel,
    )
    if as_json:
        app.console.json(
            [
                {
                    "environment": r.env,
                    "cluster": r.cluster,
                    "drifted": r.drifted,
                    "no_state": r.no_state,
                }
                for r in results
            ]
        )
    else:
        for result in results:
            where = f"{result.env}/{result.cluster}"
            for stage_name in result.no_state:
                app.console.data(f"{where}/{stage_name}: no state (nothing applied yet)")
            for stage_name, items in result.drifted.items():
                app.console.data(f"{where}/{stage_name}: " + ("; ".join(items) or "no drift"))
    errors = [r.error for r in results if r.error is not None]
    if errors:
        return _report_errors(app, errors)
    return int(ExitCode.CHANGES) if any(r.has_drift for r in results) else 0


@cli.command()
@click.argument("env", shell_complete=complete_envs)
@_STAGE_OPTION
@_CLUSTER_OPTION
@click.option("--show-sensitive", is_flag=True, help="Print sensitive values too.")
@TERRAFORM_OPTION
@click.pass_obj
def output(
    app: App,
    env: str,
    stage: str | None,
    clusters: tuple[str, ...],
    show_sensitive: bool,
    terraform_bin: str | None,
) -> int:
    """Print the outputs of every stage of each cluster of ENV as JSON."""
    from gpuplat.app.lifecycle import outputs
    from gpuplat.workspace import terraform_binary

    values = outputs(
        app.root,
        env,
        binary=terraform_binary(terraform_bin),
        stage=stage,
        clusters=clusters,
        show_sensitive=show_sensitive,
    )
    app.console.json(values)
    return 0


@cli.command()
@click.argument("env", shell_complete=complete_envs)
@TERRAFORM_OPTION
@click.pass_obj
def migrate(app: App, env: str, terraform_bin: str | None) -> int:
    """Move ENV's state from the old layout (one root per stage holding every cluster,
    envs/ENV/STAGE/) into each cluster's own roots (envs/ENV/CLUSTER/STAGE/)."""
    from gpuplat.app.migrate import migrate_env
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    result = migrate_env(
        app.root,
        env,
        binary=terraform_binary(terraform_bin),
        progress=Progress(app.console, live=True),
    )
    for move in result.stages:
        if not (move.moved or move.skipped or move.left):
            app.console.data(f"{env}/{move.stage}: no old state ({move.old})")
            continue
        for cluster, addresses in move.moved.items():
            app.console.data(f"{env}/{move.stage}: moved {len(addresses)} module(s) to {cluster}")
        for cluster, why in move.skipped.items():
            app.console.data(f"{env}/{move.stage}: {cluster} skipped: {why}")
        for address in move.left:
            app.console.data(f"{env}/{move.stage}: left in the old state: {address}")
        app.console.say(
            f"the old state of {env}/{move.stage} is untouched at {move.old}: delete it once "
            f"`gpuplat plan {env}` shows the clusters' resources as they are"
        )
    return 0
