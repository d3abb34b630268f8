"""Every example renders exactly its golden tree; the repository root holds the default one."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.app.init import DEFAULT_EXAMPLE, list_examples
from tests.support.cli import run
from tests.support.golden import GOLDEN, REPO, REPO_ROOT_ITEMS, build, compare, tree

EXAMPLES = [name for name, _ in list_examples()]


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_matches_golden(example: str, tmp_path: Path) -> None:
    project = build(example, tmp_path / example)
    problems = compare(tree(GOLDEN / example), tree(project))
    assert not problems, "run `make golden` and review the diff:\n" + "\n".join(problems)


def test_repository_root_is_the_rendered_default_example() -> None:
    golden = tree(GOLDEN / DEFAULT_EXAMPLE, REPO_ROOT_ITEMS)
    problems = compare(golden, tree(REPO, REPO_ROOT_ITEMS))
    assert not problems, "run `make golden` and review the diff:\n" + "\n".join(problems)


def test_repository_root_render_check_passes() -> None:
    result = run("render", "--check", cwd=REPO)
    assert result.exit_code == 0, result.stderr
