"""`make test` on a fresh machine: Graphviz' dot and Prometheus are installed or named, never
silently skipped.

The SVG tests (tests/cost/test_graph.py) need the real `dot`, the KEDA query test
(tests/fidelity/test_prometheus_query.py) a real `prometheus`; a developer machine without them
used to skip those tests. Here the machine is made one without dot, and without apt-get or root, by
giving make a PATH that holds make alone.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_make_tools_without_dot_fails_with_the_install_command(tmp_path: Path) -> None:
    make = shutil.which("make")
    if make is None:
        pytest.fail("make is not on PATH: the README's test command is `make test`")
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "make").symlink_to(make)
    done = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "tools"],
        env={"PATH": str(bare), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "make test needs dot on PATH" in done.stderr
    assert "apt-get install graphviz" in done.stderr


def test_make_test_runs_tools_first() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\ntest: install tools\n" in makefile
