"""Compiled root templates kept between runs: a second process loads them without compiling,
never an entry of other settings or a damaged one, and a folder it cannot write costs nothing
but time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import jinja2

from gpuplat.cachedir import ENV_VAR
from gpuplat.render.bytecode import flavour
from gpuplat.render.templates import environment

LOAD = """\
from gpuplat.render.templates import environment
env = environment()
names = sorted(n for n in env.list_templates() if n.startswith("roots/"))[:3]
compiled = []
real = env.compile
def compile(source, name=None, filename=None, raw=False, defer_init=False):
    compiled.append(name)
    return real(source, name, filename, raw, defer_init)
env.compile = compile
for name in names:
    env.get_template(name)
print(len(names), len(compiled))
"""


def _load(cache_dir: Path) -> list[str]:
    env = dict(os.environ, **{ENV_VAR: str(cache_dir)})
    done = subprocess.run(
        [sys.executable, "-c", LOAD], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def test_a_second_process_loads_the_templates_without_compiling_them(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    assert _load(folder) == ["3", "3"]
    written = sorted(p.name for p in (folder / "templates").iterdir())
    assert len(written) == 3 and all(n.endswith(".cache") for n in written)
    assert _load(folder) == ["3", "0"]
    assert sorted(p.name for p in (folder / "templates").iterdir()) == written  # no temp files


def test_a_damaged_entry_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    _load(folder)
    for entry in (folder / "templates").iterdir():
        entry.write_bytes(entry.read_bytes()[:20])
    assert _load(folder) == ["3", "3"]
    assert _load(folder) == ["3", "0"]


def test_an_entry_others_may_write_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    _load(folder)
    for entry in (folder / "templates").iterdir():
        entry.chmod(0o666)
    assert _load(folder) == ["3", "3"]


def test_an_unwritable_folder_falls_back_silently(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert _load(blocker / "cache") == ["3", "3"]
    assert _load(blocker / "cache") == ["3", "3"]


def test_the_flavour_follows_the_settings_the_code_depends_on() -> None:
    ours = environment()
    one = flavour(ours)
    assert flavour(ours.overlay()) == one
    assert flavour(ours.overlay(trim_blocks=False)) != one
    other = ours.overlay()
    other.filters = {**ours.filters, "shout": str.upper}
    assert flavour(other) != one
    assert flavour(jinja2.Environment()) != one
