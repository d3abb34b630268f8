"""Vendoring commands: copy modules into a repository, check and accept edits, upgrade."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from gpuplat.cli.group import App, cli
from gpuplat.cli.paths import HerePath

STAGES = ("infra", "platform", "serving")


class _DefaultGroup(click.Group):
    """``gpuplat vendor DEST`` runs ``copy`` (``vendor copy DEST`` too); ``vendor upgrade`` its own."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["copy", *args]
        return super().parse_args(ctx, args)


@cli.group(cls=_DefaultGroup)
def vendor() -> None:
    """Vendor gpuplat's modules into an existing Terraform repository.

    \b
    gpuplat vendor DEST               copy the module versions the spec uses (or --modules)
    gpuplat vendor --check DEST       CI gate: exit 5 with a diff when the copy differs from its lock
    gpuplat vendor --accept DEST      record reviewed local edits in the lock
    gpuplat vendor upgrade DEST       move to new versions, keeping local edits (three-way merge)

    Run `gpuplat vendor copy --help` for every option of the first three.
    """


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


@vendor.command("copy")
@click.argument("dest", type=HerePath(file_okay=False, path_type=Path))
@click.option(
    "--modules", default=None, help="Modules to vendor: a,b or a@1.0.0 (default: the spec's)."
)
@click.option("--into", default=None, help="Vendor folder inside DEST (default: modules/gpuplat).")
@click.option(
    "--calls",
    "calls_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Also write gpuplat_<cluster>.tf module calls into this root folder of DEST.",
)
@click.option("-e", "--env", default=None, help="Environment whose values the calls carry.")
@click.option(
    "--stage",
    type=click.Choice(STAGES),
    default="infra",
    show_default=True,
    help="Which stage's module calls to write.",
)
@click.option(
    "--existing-cluster",
    "existing",
    multiple=True,
    metavar="CLUSTER",
    help="A cluster of the spec the repository already has: no cluster call is written, its "
    "pools join it through the cloud's data source (repeatable; infra stage).",
)
@click.option(
    "--node-role",
    default=None,
    metavar="ARN",
    help="IAM role of the nodes of an existing EKS cluster (EKS does not say it).",
)
@click.option(
    "--ignore-constraints", is_flag=True, help="Vendor even when version constraints conflict."
)
@click.option(
    "--cdktf",
    "cdktf",
    type=click.Choice(["python"]),
    default=None,
    help="Also write a typed CDKTF construct per vendored module.",
)
@click.option(
    "--check", is_flag=True, help="Exit 5 with a diff when the copy differs from its lock."
)
@click.option("--accept", is_flag=True, help="Record the copy as it is now (reviewed local edits).")
@click.pass_obj
def copy(
    app: App,
    dest: Path,
    modules: str | None,
    into: str | None,
    calls_dir: Path | None,
    env: str | None,
    stage: str,
    existing: tuple[str, ...],
    node_role: str | None,
    ignore_constraints: bool,
    cdktf: str | None,
    check: bool,
    accept: bool,
) -> int:
    """Copy module versions into DEST with a lock; or --check / --accept the copy."""
    from gpuplat.app import vendor as vendor_app
    from gpuplat.vendoring.lock import DEFAULT_INTO

    if check:
        lock, count = vendor_app.check(dest, into)
        app.console.say(f"vendored copy matches {lock} ({count} files)")
        return 0
    if accept:
        lines = vendor_app.accept(dest, into)
        for line in lines:
            app.console.say(f"  accepted {line}")
        app.console.say(
            "nothing to accept: the copy matches its lock" if not lines else "lock updated"
        )
        return 0
    calls = None
    if calls_dir is not None:
        words = ["gpuplat", "vendor", str(dest), "--calls", str(calls_dir), "--stage", stage]
        if env:
            words += ["-e", env]
        if into:
            words += ["--into", into]
        for name in existing:
            words += ["--existing-cluster", name]
        if node_role:
            words += ["--node-role", node_role]
        calls = vendor_app.Calls(
            calls_dir, env, stage, shlex.join(words), tuple(existing), node_role
        )
    elif existing or node_role:
        raise click.UsageError("--existing-cluster and --node-role go with --calls DIR")
    result = vendor_app.vendor(
        dest,
        app.root,
        _split(modules),
        into=into or DEFAULT_INTO,
        calls=calls,
        ignore_constraints=ignore_constraints,
    )
    for line in result.unreadable:
        app.console.say(f"Warning: could not read {line}; its constraints were not checked")
    for path in result.written:
        app.console.say(f"  wrote {path}")
    for kept in result.kept:
        app.console.say(f"  already vendored: {kept}")
    if cdktf:
        from gpuplat.app.cdktf import write_constructs

        for path in write_constructs(dest, into, cdktf):
            app.console.say(f"  wrote {path}")
    app.console.say(f"lock: {result.lock}")
    return 0


@vendor.command()
@click.argument("dest", type=HerePath(file_okay=False, path_type=Path))
@click.option(
    "--modules", default=None, help="Only these modules: a,b, or a@1.1.0 to move to that version."
)
@click.option(
    "--into", default=None, help="Vendor folder inside DEST (default: the one lock found)."
)
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@click.option(
    "--conflicts",
    "conflict_copy",
    type=HerePath(file_okay=False, path_type=Path),
    default=None,
    help="On conflict, write the merge with conflict markers into this folder.",
)
@click.option(
    "--resolved",
    type=HerePath(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Take the conflicting modules' merge from this folder (a --conflicts folder, "
    "markers edited away).",
)
@click.pass_obj
def upgrade(
    app: App,
    dest: Path,
    modules: str | None,
    into: str | None,
    dry_run: bool,
    conflict_copy: Path | None,
    resolved: Path | None,
) -> int:
    """Move vendored modules to the versions gpuplat (or the spec) uses, keeping local edits."""
    from gpuplat.app.upgrade import upgrade as upgrade_app
    from gpuplat.app.upgrade_report import report

    result = upgrade_app(
        dest,
        app.root,
        into,
        _split(modules),
        dry_run=dry_run,
        conflict_copy=conflict_copy,
        resolved=resolved,
    )
    if not result.modules:
        app.console.say("up to date: every vendored module is at the version gpuplat uses")
        return 0
    for line in report(result):
        app.console.say(line)
    for where in result.sources:
        app.console.say(f"  module source updated: {where}")
    app.console.say("dry run: nothing written" if dry_run else "upgraded; lock updated")
    return 0
