"""A render with nothing to do trusts recorded hashes only for files nobody touched since."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gpuplat.tree import stats
from tests.support.cli import run


def _rendered(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    run("init", project)
    assert run("render", cwd=project).exit_code == 0
    time.sleep(stats.RACY_NS / 1e9 * 2)  # past the margin: the record is trusted
    return project


def test_an_unchanged_tree_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _rendered(tmp_path)
    assert "nothing written" in run("render", cwd=project).stderr
    hashed: list[Path] = []
    real = stats._hash
    monkeypatch.setattr(stats, "_hash", lambda path: (hashed.append(path), real(path))[1])
    assert "nothing written" in run("render", cwd=project).stderr
    assert hashed == []


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(tmp_path: Path) -> None:
    project = _rendered(tmp_path)
    main = next((project / "envs").rglob("main.tf"))
    before = main.stat()
    text = main.read_text()
    edited = text.replace("=", "#", 1)
    assert len(edited) == len(text)
    with main.open("r+") as fh:  # in place: same inode, same size
        fh.write(edited)
    os.utime(main, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the old mtime
    assert main.stat().st_mtime_ns == before.st_mtime_ns
    assert run("render", cwd=project).exit_code == 0
    assert main.read_text() == text  # the ctime gave it away: rendered again
