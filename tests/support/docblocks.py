"""The shell examples of the docs that are marked runnable, and a runner for them.

A fenced ``console``, ``sh`` or ``bash`` block is runnable when the line right above its fence
is one of::

    <!-- docs-test: run -->                      in an empty folder
    <!-- docs-test: run in a project -->         in a project `gpuplat init` wrote (the default)
    <!-- docs-test: run in example NAME -->      in a project of that example

Its commands are the ``$ `` lines of a ``console`` block, or every line of an ``sh`` / ``bash``
block that is not a comment; a line ending in a backslash continues on the next. Each command
must exit 0, or N when its comment says ``# exit N``; in a ``console`` block, each line shown
under a command must be a line of what it printed (stdout and stderr). The commands run one
after another in one shell (``cd`` carries on), with the virtualenv's ``gpuplat`` on ``PATH``.
Here-documents are refused: a command is one line, so each one's exit code is its own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MARK = re.compile(
    r"^<!-- docs-test: run(?P<inside> in (?:a project|example (?P<example>[\w-]+)))? -->$"
)
FENCE = re.compile(r"^```(?P<lang>console|sh|bash)\s*$")
EXIT = re.compile(r"#\s*exit (?P<code>\d+)\b")


@dataclass(frozen=True)
class Command:
    line: int
    text: str
    exit_code: int
    output: tuple[str, ...] = ()
    """Lines the docs show it printing."""


@dataclass(frozen=True)
class Block:
    """One runnable block: where it is, the project it runs in, its commands."""

    path: Path
    line: int
    project: str | None
    """None: an empty folder; else the example to `gpuplat init` ("" for the default)."""
    commands: tuple[Command, ...]

    def id(self, repo: Path) -> str:
        return f"{self.path.relative_to(repo).as_posix()}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The runnable blocks of one Markdown file.

    Raises:
        ValueError: A mark is not followed by a shell fence, or a block holds a here-document.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    for index, line in enumerate(lines):
        mark = MARK.match(line.strip())
        if mark is None:
            continue
        fence = FENCE.match(lines[index + 1]) if index + 1 < len(lines) else None
        if fence is None:
            raise ValueError(f"{path}:{index + 1}: a docs-test mark must sit right above a fence")
        body: list[tuple[int, str]] = []
        for number in range(index + 2, len(lines)):
            if lines[number].startswith("```"):
                break
            body.append((number + 1, lines[number]))
        project = None if mark.group("inside") is None else (mark.group("example") or "")
        commands = _commands(path, body, console=fence.group("lang") == "console")
        out.append(Block(path, index + 2, project, tuple(commands)))
    return out


def _commands(path: Path, body: list[tuple[int, str]], *, console: bool) -> list[Command]:
    out: list[Command] = []
    pending: tuple[int, str] | None = None
    for number, raw in body:
        if pending is not None:
            start, text = pending
            text = text[:-1] + " " + raw.strip()
        elif console:
            if not raw.startswith("$ "):
                if out and raw.strip():
                    last = out[-1]
                    out[-1] = Command(last.line, last.text, last.exit_code, (*last.output, raw))
                continue
            start, text = number, raw[2:]
        else:
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            start, text = number, raw
        if "<<" in text:
            raise ValueError(f"{path}:{number}: no here-documents in a runnable block")
        if text.rstrip().endswith("\\"):
            pending = (start, text.rstrip())
            continue
        pending = None
        found = EXIT.search(text)
        out.append(Command(start, text.strip(), int(found.group("code")) if found else 0))
    return out


def script(block: Block) -> str:
    """The block as a bash script that stops at the first command with the wrong exit code."""
    lines = ["set +e", 'printed="$(mktemp)"']
    for command in block.commands:
        lines += [
            "{ " + command.text,
            '} >"$printed" 2>&1; rc=$?; cat "$printed" >&2',
            f"if [ $rc -ne {command.exit_code} ]; then "
            f"echo 'docs-test: line {command.line}: exit '$rc', expected {command.exit_code}: "
            f"{_quote(command.text)}' >&2; exit 99; fi",
        ]
        for shown in command.output:
            lines.append(
                f"grep -qxF -- '{_quote(shown.rstrip())}' \"$printed\" || {{ echo 'docs-test: "
                f"line {command.line}: it did not print: {_quote(shown.rstrip())}' >&2; exit 98; }}"
            )
    return "\n".join(lines) + "\n"


def run(block: Block, folder: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a block in ``folder`` (a project first, if it asks for one)."""
    folder.mkdir(parents=True, exist_ok=True)
    venv_bin = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["NO_COLOR"] = "1"
    if block.project is not None:
        words = [str(venv_bin / "gpuplat"), "init", "."]
        if block.project:
            words += ["-x", block.project]
        subprocess.run(words, cwd=folder, env=env, check=True, capture_output=True, timeout=120)
    return subprocess.run(
        ["bash", "-c", script(block)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _quote(text: str) -> str:
    """Text safe inside a single-quoted shell word."""
    return text.replace("'", "'\"'\"'")
