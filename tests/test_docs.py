"""The documentation: its generated sections match the code, the site builds with --strict, the
README stays a front page, and the shell examples marked runnable run with the exit codes they
say (tests/support/docblocks.py has the marks)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplat.docs import SECTIONS, documents, render_all
from tests.support import docblocks

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
BLOCKS = [b for path in documents(REPO) for b in docblocks.blocks(path)]


def test_generated_sections_are_current_and_each_in_one_document() -> None:
    found = render_all(REPO)
    stale = [p.relative_to(REPO).as_posix() for p, (now, wanted) in found.items() if now != wanted]
    assert stale == [], "stale generated sections: run `make golden` and commit"
    held = {n for text, _ in found.values() for n in SECTIONS if f"GENERATED: {n} " in text}
    assert held == set(SECTIONS)


def test_reference_covers_every_model_field() -> None:
    from gpuplat.docs import spec_reference

    text = spec_reference()
    for key in ("machine_type", "max_clients", "load_time_budget", "backend", "device_plugin"):
        assert f"| `{key}` |" in text


def test_the_cli_reference_has_every_command_and_option() -> None:
    from gpuplat.docs import cli_reference

    text = cli_reference()
    for command in ("render", "plan", "failover", "vendor copy", "vendor upgrade", "conformance"):
        assert f"`gpuplat {command}`" in text
    assert "| `--manifests DIRECTORY` |" in text or "| `--manifests" in text
    assert "| `--stage" in text


def test_the_site_builds_with_strict(tmp_path: Path) -> None:
    """mkdocs build --strict: a broken link or anchor, or a page outside the nav, fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "A first platform in ten minutes" in index  # the README is the front page
    assert 'href="getting-started/' in index  # its docs/ links point into the site
    for page in ("reference/cli", "reference/spec", "failover", "clouds/eks", "troubleshooting"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page


def test_the_readme_is_a_front_page() -> None:
    """What it is, the two set-up commands, a first platform, where to go next; short."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    setup = text[text.index("## Set up") :]
    setup = setup[setup.index("```sh\n") + 6 : setup.index("```\n", setup.index("```sh\n") + 6)]
    assert [line.split()[:2] for line in setup.splitlines()] == [["make", "demo"], ["make", "test"]]
    assert text.index("## A first platform") < text.index("## Where to go next")
    assert any(b.path == README for b in BLOCKS)


def test_there_are_runnable_examples_across_the_docs() -> None:
    assert len(BLOCKS) >= 5
    assert len({b.path for b in BLOCKS}) >= 3
    assert sum(len(b.commands) for b in BLOCKS) >= 20


def test_output_an_example_shows_must_be_printed(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- docs-test: run -->\n```console\n$ echo one; echo two\none\n$ echo three\nfour\n```\n"
    )
    (block,) = docblocks.blocks(page)
    assert [c.output for c in block.commands] == [("one",), ("four",)]
    done = docblocks.run(block, tmp_path / "run")
    assert done.returncode == 98
    assert "line 5: it did not print: four" in done.stderr


def test_a_wrong_exit_code_in_an_example_fails_it(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- docs-test: run -->\n```console\n$ true\n$ false       # exit 0\n$ true\n```\n"
    )
    (block,) = docblocks.blocks(page)
    assert [(c.line, c.exit_code) for c in block.commands] == [(3, 0), (4, 0), (5, 0)]
    done = docblocks.run(block, tmp_path / "run")
    assert done.returncode == 99
    assert "line 4: exit 1, expected 0" in done.stderr


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id(REPO) for b in BLOCKS])
def test_the_runnable_examples_run(block: docblocks.Block, tmp_path: Path) -> None:
    done = docblocks.run(block, tmp_path / "work")
    assert done.returncode == 0, done.stderr[-3000:]


def test_relative_links_resolve_where_the_markdown_is_read() -> None:
    """On a forge the Markdown is read beside its folder: every relative link names a file that
    is there (the site maps ../README.md to its front page, tools/docs/hooks.py)."""
    import re

    broken = []
    for path in [README, *sorted((REPO / "docs").rglob("*.md"))]:
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            target = link.split("#")[0]
            if target and "://" not in target and not (path.parent / target).exists():
                broken.append(f"{path.relative_to(REPO)}: {link}")
    assert broken == []


def test_the_readme_reads_as_one_session(tmp_path: Path) -> None:
    """A reader types the front page's blocks one after another in one shell: together they
    run, and no block starts a project inside the one an earlier block made."""
    from dataclasses import replace

    readme = [b for b in BLOCKS if b.path == README]
    first, rest = readme[0], readme[1:]
    assert first.project is None
    session = replace(first, commands=tuple(c for b in readme for c in b.commands))
    done = docblocks.run(session, tmp_path / "reader")
    assert done.returncode == 0, done.stderr[-3000:]
    assert all(not c.text.startswith("gpuplat init") for b in rest for c in b.commands)
    assert sorted(p.name for p in (tmp_path / "reader").rglob("gpuplat.yaml")) == ["gpuplat.yaml"]
