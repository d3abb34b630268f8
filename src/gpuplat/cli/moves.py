"""Moving a workload between clusters: failover, and converge, which finishes a move."""

from __future__ import annotations

from typing import Literal

import click

from gpuplat.cli.complete import complete_envs
from gpuplat.cli.group import App, cli
from gpuplat.cli.options import TERRAFORM_OPTION, confirmer
from gpuplat.errors import ExitCode


def run_converge(
    app: App, workload: str, env: str, *, yes: bool, as_json: bool, terraform_bin: str | None
) -> int:
    """Converge ``workload`` in ``env`` and print what it did (the exit code)."""
    from gpuplat.app import converge as converge_app
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    result = converge_app.converge(
        app.root,
        env,
        workload,
        binary=terraform_binary(terraform_bin),
        progress=Progress(app.console, live=not as_json),
        yes=yes,
        confirm=confirmer(app, "yes"),
    )
    if as_json:
        app.console.json(converge_app.result_json(result))
    else:
        for line in converge_app.result_lines(result):
            app.console.data(line)
    return 0


@cli.command()
@click.argument("workload")
@click.option(
    "-e", "--env", "env", required=True, help="Environment.", shell_complete=complete_envs
)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation before applying.")
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON on stdout.")
@TERRAFORM_OPTION
@click.pass_obj
def converge(
    app: App, workload: str, env: str, yes: bool, as_json: bool, terraform_bin: str | None
) -> int:
    """Bring every cluster of WORKLOAD to its role's count (the serving clusters first) and
    finish a pending move (a `failover --target-only` whose sources were left serving): a
    Deployment running a count its role does not hold is replaced and starts at the role's
    count. Run again, it changes nothing."""
    return run_converge(app, workload, env, yes=yes, as_json=as_json, terraform_bin=terraform_bin)


@cli.command()
@click.argument("workload")
@click.option("--to", "to", required=True, help="Cluster that takes over (one of its clusters).")
@click.option(
    "-e", "--env", "env", required=True, help="Environment.", shell_complete=complete_envs
)
@click.option(
    "--source",
    "source_role",
    type=click.Choice(["cold", "warm"]),
    default="cold",
    show_default=True,
    help="What the clusters that served become.",
)
@click.option(
    "--dry-run", is_flag=True, help="Only check the target and print the order; change nothing."
)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation before applying.")
@click.option(
    "--target-only",
    is_flag=True,
    help="Bring the target up even when a source cannot be planned (its cloud is down); the "
    "source is left serving until it is applied.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the failover as JSON on stdout.")
@TERRAFORM_OPTION
@click.pass_obj
def failover(
    app: App,
    workload: str,
    to: str,
    env: str,
    source_role: str,
    dry_run: bool,
    yes: bool,
    target_only: bool,
    as_json: bool,
    terraform_bin: str | None,
) -> int:
    """Move WORKLOAD's serving to cluster TO: check that TO can hold it, write the roles into
    the environment's overlay, plan the serving roots of both sides, and apply in the safe
    order (TO up and ready first, then the source down; never both down)."""
    from gpuplat.app import failover as failover_app
    from gpuplat.app import move, pending
    from gpuplat.progress import Progress
    from gpuplat.workspace import terraform_binary

    role: Literal["cold", "warm"] = "warm" if source_role == "warm" else "cold"
    moved = pending.read(app.root, env).get(workload)
    if dry_run and moved is not None and moved.target == to:
        # The same failover again finishes the move: say what that would do, not a refusal.
        from gpuplat.app import converge as converge_app

        steps = converge_app.preview(app.root, env, moved)
        if as_json:
            app.console.json(
                {
                    "environment": env,
                    "workload": workload,
                    "target": to,
                    "refused": False,
                    "pending": converge_app.pending_json(env, moved),
                    "converge": steps,
                }
            )
            return 0
        app.console.data(
            f"failover {workload} to {to} ({env}): pending, {', '.join(moved.sources)} left "
            f"serving by a --target-only move (envs/{env}/moves.json); this failover without "
            f"--dry-run, or `gpuplat converge {workload} -e {env}`, finishes it:"
        )
        for step in steps["steps"]:  # type: ignore[attr-defined]
            app.console.data(f"  {step['cluster']}: {step['does']}")
        return 0
    if dry_run:
        check = failover_app.failover(app.root, env, workload, to, role)
        if as_json:
            app.console.json(failover_app.report_json(env, check))
        else:
            for line in failover_app.report_lines(env, check):
                app.console.data(line)
        return ExitCode.REFUSED if check.refused else 0
    if moved is not None and moved.target == to:
        # The same failover again after a --target-only move: finish it.
        return run_converge(
            app, workload, env, yes=yes, as_json=as_json, terraform_bin=terraform_bin
        )
    result = move.carry_out(
        app.root,
        env,
        workload,
        to,
        role,
        binary=terraform_binary(terraform_bin),
        progress=Progress(app.console, live=not as_json),
        yes=yes,
        confirm=confirmer(app, "yes"),
        target_only=target_only,
    )
    if as_json:
        app.console.json(move.result_json(result))
    else:
        for line in move.result_lines(result):
            app.console.data(line)
    return ExitCode.REFUSED if result.check.refused else 0
