"""A CI gate on a read-only checkout: `render --check` and `--dry-run` read, so they run there.

The checkout is made read-only for real (chmod -R a-w as a normal user, a read-only bind mount
as root: see tests/app/test_user_files.py): the kernel refuses every write, the lock file's too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_user_files import read_only
from tests.support.cli import run


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A fresh clone: rendered and committed, without gpuplat's local `.gpuplat/` folder."""
    import shutil

    folder = tmp_path / "p"
    assert run("init", "--example", "eks-l4-vllm", str(folder)).exit_code == 0
    assert run("render", cwd=folder).exit_code == 0
    shutil.rmtree(folder / ".gpuplat")
    return folder


@pytest.mark.parametrize(
    ("args", "said"),
    [(["--check"], "up to date: dev, prod\n"), (["--dry-run"], "up to date: dev, prod")],
)
def test_reading_renders_run_on_a_read_only_checkout(
    checkout: Path, args: list[str], said: str
) -> None:
    with read_only(checkout):
        done = run("render", *args, cwd=checkout)
    assert done.exit_code == 0, done.stderr
    assert said in done.stderr
    assert not (checkout / ".gpuplat").exists()


def test_a_stale_read_only_checkout_still_fails_the_gate(checkout: Path) -> None:
    spec = checkout / "gpuplat.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("target: 4", "target: 3", 1), "utf-8")
    with read_only(checkout):
        done = run("render", "--check", cwd=checkout)
    assert done.exit_code == 5, done.stderr


def test_a_writing_render_on_a_read_only_checkout_says_why(checkout: Path) -> None:
    with read_only(checkout):
        done = run("render", cwd=checkout)
    assert done.exit_code == 1
    assert "cannot take the render lock" in done.stderr
