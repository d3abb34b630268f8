"""The CLI reference of the docs: every command's usage, help and options, read from click.

Generated, never written by hand, so it cannot disagree with ``gpuplat COMMAND --help``.
"""

from __future__ import annotations

import inspect

import click


def reference() -> str:
    """Markdown: one section per command (``vendor upgrade`` under ``vendor``), in name order."""
    from gpuplat.cli import cli

    root = click.Context(cli, info_name="gpuplat", **cli.context_settings)
    parts = [_command(root, cli, "gpuplat", level=0)]
    parts += _children(root, cli, "gpuplat")
    return "\n".join(parts).rstrip() + "\n"


def _children(parent: click.Context, group: click.Command, path: str) -> list[str]:
    if not isinstance(group, click.Group):
        return []
    out: list[str] = []
    for name in sorted(group.list_commands(parent)):
        command = group.get_command(parent, name)
        if command is None or command.hidden:
            continue
        ctx = click.Context(command, info_name=name, parent=parent)
        out.append(_command(ctx, command, f"{path} {name}", level=path.count(" ") + 1))
        out += _children(ctx, command, f"{path} {name}")
    return out


def _command(ctx: click.Context, command: click.Command, path: str, level: int) -> str:
    lines = [f"{'#' * (level + 2)} `{path}`", ""]
    usage = " ".join(command.collect_usage_pieces(ctx))
    lines += ["```text", f"{path} {usage}".rstrip(), "```", ""]
    text = _help(command.help or "")
    if text:
        lines += [text, ""]
    found = [_option(p, ctx) for p in command.get_params(ctx) if isinstance(p, click.Option)]
    rows = [r for r in found if r is not None]
    if rows:
        lines += ["| option | meaning |", "| --- | --- |", *rows, ""]
    return "\n".join(lines)


def _help(text: str) -> str:
    """A command's help as Markdown: prose paragraphs as they are, ``\\b`` blocks as code."""
    out: list[str] = []
    for paragraph in inspect.cleandoc(click.unstyle(text)).split("\n\n"):
        if paragraph.startswith("\b"):
            body = paragraph[1:].strip("\n")
            out.append(f"```text\n{body}\n```")
        else:
            out.append(" ".join(paragraph.split()))
    return "\n\n".join(out)


def _option(param: click.Option, ctx: click.Context) -> str | None:
    record = param.get_help_record(ctx)
    if record is None:
        return None
    names, meaning = record
    return f"| `{_cell(names)}` | {_cell(meaning)} |"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
