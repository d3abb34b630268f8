"""The launcher's no-op check loads no module it can do without, and reads what json reads."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpuplat import clock
from gpuplat.tree import fingerprint, jsonread, stats, uptodate
from tests.support.cli import run

HEAVY = ("click", "pydantic", "jinja2", "yaml", "re", "json", "pathlib", "hashlib", "datetime")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    assert run("init", root).exit_code == 0
    assert run("render", cwd=root).exit_code == 0
    time.sleep(stats.RACY_NS / 1e9 * 2)  # past the margin: the status record is trusted
    return root


def test_an_up_to_date_render_imports_neither_re_nor_json_pathlib_hashlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(clock.ENV_VAR, raising=False)  # the system's day: no datetime needed
    project = tmp_path / "p"
    assert run("init", project).exit_code == 0
    assert run("render", cwd=project).exit_code == 0
    time.sleep(stats.RACY_NS / 1e9 * 2)
    code = (
        "import sys\n"
        "sys.argv = ['gpuplat', 'render']\n"
        "from gpuplat.launch import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        f"    print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    # -S: no site hooks that import what they like. The first check hashes what changed within
    # the status record's margin (and gpuplat's code, hashed in this process before) and
    # records it; the second one is the everyday case.
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-S", "-c", code],
            cwd=project,
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
    assert done.stderr == "up to date: dev, prod (nothing written)\n"
    assert (done.returncode, done.stdout) == (0, "[]\n")


def test_the_lock_says_who_holds_it_as_the_render_lock_does(project: Path) -> None:
    assert uptodate.answer(["render"], cwd=project) == 0
    holder = json.loads((project / uptodate.LOCK).read_text())
    assert set(holder) == {"pid", "argv", "since"}
    assert time.strptime(holder["since"], "%Y-%m-%dT%H:%M:%S+00:00")


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, 2.5, -3e-2, null, true, false, "x\\u00e9\\n"], "b": {}}',
        "  [1]  \n",
        '"s"',
        "[-Infinity, Infinity]",
        '{"k": {"k": [[], {}]}}',
    ],
)
def test_records_read_as_json_reads_them(text: str) -> None:
    assert repr(jsonread.loads(text)) == repr(json.loads(text))


def test_nan_reads_as_nan() -> None:
    assert math.isnan(jsonread.loads("NaN"))


@pytest.mark.parametrize("text", ["", "  ", "{", "[1] x", '{"a" 1}', "nul", '"abc', "[1,]"])
def test_what_json_refuses_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        jsonread.loads(text)


def test_the_lock_line_is_what_json_writes() -> None:
    holder = {"pid": 12, "argv": ["gpuplat", "render", 'é"\\\n'], "since": "2026-12-03T19:00"}
    assert jsonread.dumps_line(holder) == json.dumps(holder)
    odd = {"pid": True, "argv": [1], "since": None}
    assert jsonread.dumps_line(odd) == json.dumps(odd)


def test_overlay_candidates_are_what_pathlib_globs(tmp_path: Path) -> None:
    envs = tmp_path / "envs"
    (envs / "sub.yaml").mkdir(parents=True)
    for name in (".hidden.yaml", "a.yaml", "b.yml", "c.YAML", "d.yhtml", "e.y.ml", "f.txt"):
        (envs / name).write_text("{}\n")
    for name in ("g.yaml.bak", "Z.yaml", "h.yml ", ".y ml", "ml", ".yml"):
        (envs / name).write_text("{}\n")
    globbed = tuple(p.relative_to(tmp_path).as_posix() for p in sorted(envs.glob("*.y*ml")))
    assert fingerprint.overlay_listing(tmp_path) == globbed
    assert fingerprint.overlay_listing(tmp_path / "nowhere") == ()


def test_the_day_is_the_clock_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(clock.ENV_VAR, raising=False)
    before = clock.today().isoformat()
    day = clock.day_text()
    assert day in (before, clock.today().isoformat())  # midnight may pass in between
    monkeypatch.setenv(clock.ENV_VAR, "2027-01-05")
    assert clock.day_text() == "2027-01-05"
