"""Commands on the project itself: init, validate, render, schema."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

from gpuplat.cli.complete import complete_envs, complete_examples
from gpuplat.cli.group import App, cli
from gpuplat.cli.paths import HerePath


@cli.command()
@click.option(
    "--example",
    "-x",
    default=None,
    help="Example to start from (see --list).",
    shell_complete=complete_examples,
)
@click.option("--list", "list_examples", is_flag=True, help="List the examples and exit.")
@click.option("--force", is_flag=True, help="Overwrite existing files.")
@click.argument("directory", required=False, type=HerePath(file_okay=False, path_type=Path))
@click.pass_obj
def init(
    app: App, example: str | None, list_examples: bool, force: bool, directory: Path | None
) -> int:
    """Write a working gpuplat.yaml and envs/ overlays to start from."""
    from gpuplat.app import init as init_app

    if list_examples:
        examples = init_app.list_examples()
        names = {n: f"{n} (default)" if n == init_app.DEFAULT_EXAMPLE else n for n, _ in examples}
        width = max(len(label) for label in names.values()) + 2
        for name, summary in examples:
            lines = textwrap.wrap(summary, 100 - width) or [""]
            app.console.data(f"{names[name]:<{width}}{lines[0]}")
            for more in lines[1:]:
                app.console.data(" " * width + more)
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
@click.option(
    "-e",
    "--env",
    "envs",
    multiple=True,
    help="Environment(s) to check (default: all).",
    shell_complete=complete_envs,
)
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
        for note in result.notes:
            app.console.say(f"Note: {note}")
        if result.ok:
            app.console.say(result.summary())
            for note in result.scaling:
                app.console.say(f"  {note}")
    return int(result.exit_code)


@cli.command()
@click.option(
    "-e",
    "--env",
    "envs",
    multiple=True,
    help="Environment(s) to render (default: all).",
    shell_complete=complete_envs,
)
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option(
    "--check", is_flag=True, help="Exit 5 when the tree is stale or a module was edited by hand."
)
@click.option(
    "--manifests",
    type=HerePath(file_okay=False, path_type=Path),
    default=None,
    help="Also write plain Kubernetes YAML per env and cluster into this folder (a relative "
    "DIR starts here, or in -C DIR); files you add there are kept.",
)
@click.option(
    "--layout",
    type=click.Choice(["plain", "argocd", "flux"]),
    default="plain",
    show_default=True,
    help="Lay the manifests out for GitOps: a kustomization per env and cluster, and the "
    "Argo CD Applications / ApplicationSet or Flux Kustomizations.",
)
@click.option("--repo-url", default=None, help="Git repository the GitOps objects point at.")
@click.option(
    "--revision",
    default="main",
    show_default=True,
    help="Branch, tag (v1.4.0, or any as refs/tags/NAME) or full commit SHA.",
)
@click.option(
    "--repo-path",
    default=None,
    help="The manifests folder inside that repository (default: its path in the project).",
)
@click.pass_obj
def render(
    app: App,
    envs: tuple[str, ...],
    dry_run: bool,
    check: bool,
    manifests: Path | None,
    layout: str,
    repo_url: str | None,
    revision: str,
    repo_path: str | None,
) -> int:
    """Render versioned modules and per-environment roots from the spec."""
    from gpuplat.app.render import gitops_source, render_project

    gitops = gitops_source(app.root, manifests, layout, repo_url, revision, repo_path)
    result = render_project(
        app.root,
        envs,
        dry_run=dry_run,
        check=check,
        manifests=None if check else manifests,
        layout=layout,
        gitops=gitops,
    ).result
    if result.manifests is not None and result.manifests[1]:
        app.console.say(f"  wrote {result.manifests[0]} manifest file(s) to {manifests}")
    if result.warnings:
        app.console.diagnostics(result.warnings)
    verb = "would " if dry_run else ""
    for folder in result.new_module_folders:
        app.console.say(f"  {verb}create {folder}/")
    for change in result.changes:
        app.console.say(f"  {verb}{change.action} {change.path}")
    for path in result.edited_roots:
        rewrote = "would rewrite it (--dry-run: nothing written)" if dry_run else "rewrote it"
        app.console.say(f"Warning: {path} was edited by hand; gpuplat owns it and {rewrote}")
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
@click.argument("paths", nargs=-1, type=HerePath(path_type=Path))
@click.option(
    "--schemas",
    type=HerePath(path_type=Path),
    default=None,
    help="Folder of `terraform providers schema -json` files (default: the bundled set).",
)
@click.option("--extra", type=HerePath(path_type=Path), multiple=True, help="One more schema file.")
@click.pass_obj
def conformance(
    app: App, paths: tuple[Path, ...], schemas: Path | None, extra: tuple[Path, ...]
) -> int:
    """Check Terraform (default: envs/ and modules/) against provider schemas; exit 11 if not."""
    from gpuplat.conformance.run import check_conformance

    result = check_conformance(app.root, paths, schemas=schemas, extra=extra)
    for violation in result.report.violations:
        app.console.data(str(violation))
    for note in result.report.notes:
        app.console.say(str(note))
    for line in result.crd_lines():
        app.console.say(line)
    app.console.say(result.summary())
    return int(result.exit_code)


@cli.command()
@click.option(
    "-e",
    "--env",
    "envs",
    multiple=True,
    help="Environment(s) to report on (default: all).",
    shell_complete=complete_envs,
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON on stdout.")
@click.pass_obj
def place(app: App, envs: tuple[str, ...], as_json: bool) -> int:
    """Which clusters can run each workload, and why the others cannot (a portability report)."""
    from gpuplat.app import place as place_app

    report = place_app.place(app.root, envs)
    if as_json:
        app.console.json(place_app.report_json(report))
        return 0
    for env, fits in report.items():
        for line in place_app.report_lines(env, fits):
            app.console.data(line)
    return 0
