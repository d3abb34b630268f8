"""Shell completion of environment and example names (click's completion protocol).

Completion runs on every Tab press: it reads gpuplat.yaml with the plain YAML parser and never
loads or validates the spec.
"""

from __future__ import annotations

from pathlib import Path

import click
from click.shell_completion import CompletionItem


def _project(ctx: click.Context) -> Path:
    root = ctx.find_root()
    return Path(root.params.get("project_dir") or ".")


def complete_envs(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Environment names declared in the project's gpuplat.yaml."""
    import yaml

    try:
        data = yaml.safe_load((_project(ctx) / "gpuplat.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return []
    envs = data.get("environments") if isinstance(data, dict) else None
    names = [e.get("name") for e in envs or [] if isinstance(e, dict)]
    return [CompletionItem(n) for n in names if isinstance(n, str) and n.startswith(incomplete)]


def complete_examples(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Names of the examples `gpuplat init` can write, with their summaries."""
    from gpuplat.app.init import list_examples

    return [
        CompletionItem(name, help=summary)
        for name, summary in list_examples()
        if name.startswith(incomplete)
    ]
