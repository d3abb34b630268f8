"""Options and prompts the commands that run Terraform share."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from gpuplat.cli.group import App
from gpuplat.cli.paths import program

TERRAFORM_OPTION = click.option(
    "--terraform",
    "terraform_bin",
    default=None,
    metavar="PATH",
    callback=program,
    help="terraform or tofu binary (default: $GPUPLAT_TERRAFORM, then PATH).",
)


def confirmer(app: App, word: str) -> Callable[[str], bool] | None:
    """A prompt that wants ``word`` typed back, or None when nobody can answer it."""
    if not sys.stdin.isatty() or not app.console.interactive:
        return None

    def ask(question: str) -> bool:
        answer: str = click.prompt(question, default="", show_default=False, err=True)
        return answer.strip() == word

    return ask
