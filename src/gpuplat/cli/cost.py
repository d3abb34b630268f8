"""Commands on what the platform costs and looks like: cost, graph."""

from __future__ import annotations

from pathlib import Path

import click

from gpuplat.cli.complete import complete_envs
from gpuplat.cli.group import App, cli
from gpuplat.cli.paths import HerePath, path_or_word


@cli.command()
@click.argument("envs", nargs=-1, shell_complete=complete_envs)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON on stdout.")
@click.option(
    "--stranded", "with_stranded", is_flag=True, help="Report stranded GPUs and their waste."
)
@click.option(
    "--infracost-usage",
    type=HerePath(dir_okay=False, path_type=Path),
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
@click.option(
    "--prices",
    "prices",
    default=None,
    metavar="FILE|catalog",
    callback=path_or_word("catalog"),
    help="Price from this price file, or from the shipped catalog "
    "(default: the newest file `gpuplat prices update` wrote in prices/, else the catalog).",
)
@click.pass_obj
def cost(
    app: App,
    envs: tuple[str, ...],
    as_json: bool,
    with_stranded: bool,
    infracost_usage: Path | None,
    level: str,
    prices: str | None,
) -> int:
    """What ENV(s) cost (default: all): per cluster and pool, at floor, expected and ceiling."""
    from gpuplat.app.cost import cost_project

    result = cost_project(
        app.root,
        envs,
        infracost_usage=infracost_usage,
        level="floor" if level == "floor" else "ceiling",
        prices=prices,
    )
    if as_json:
        app.console.json(result.to_json())
    else:
        app.console.data("\n".join(result.lines(with_stranded=with_stranded)))
    for path in result.written:
        app.console.say(f"wrote {path}")
    return 0


@cli.command()
@click.argument("env", required=False, shell_complete=complete_envs)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["mermaid", "dot", "svg", "png"]),
    default="mermaid",
    show_default=True,
    help="mermaid (pull requests, READMEs), dot, or svg / png through Graphviz' dot.",
)
@click.option(
    "-o",
    "--output",
    type=HerePath(dir_okay=False, path_type=Path),
    help="Write the drawing to this file (needed for png) instead of stdout.",
)
@click.pass_obj
def graph(app: App, env: str | None, fmt: str, output: Path | None) -> int:
    """Draw ENV (default: every environment): clusters, pools, workloads and their cost."""
    from gpuplat.app.graph import Format, graph_project

    if fmt == "png" and output is None:
        raise click.UsageError("--format png writes a file: give it with -o FILE")
    chosen: Format = (
        "png" if fmt == "png" else "svg" if fmt == "svg" else "dot" if fmt == "dot" else "mermaid"
    )
    drawn = graph_project(app.root, env, chosen)
    if output is None:
        app.console.data(drawn.decode().rstrip("\n"))
        return 0
    output.write_bytes(drawn)
    app.console.say(f"wrote {output}")
    return 0


@cli.group()
def prices() -> None:
    """The clouds' public list prices that `cost` prices from."""


@prices.command("update")
@click.argument("envs", nargs=-1, shell_complete=complete_envs)
@click.pass_obj
def prices_update(app: App, envs: tuple[str, ...]) -> int:
    """Fetch list prices for the shapes of ENV(s) (default: all) into prices/prices-DATE.json.

    AWS Price List and Azure Retail Prices need no credentials; the Google Cloud Billing
    Catalog needs an API key in GPUPLAT_GCP_API_KEY (without it GKE keeps the catalog's
    figures). `gpuplat cost` then prices from the newest file.
    """
    from gpuplat.app.prices import update_prices

    done = update_prices(app.root, envs)
    app.console.say(f"wrote {done.path} ({done.figures} figures)")
    for line in done.skipped:
        app.console.say(f"  {line}")
    return 0
