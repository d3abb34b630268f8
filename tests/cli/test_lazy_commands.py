"""Each command's module is imported only when that command runs; pydantic builds and scans
nothing it does not need at start-up."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import gpuplat.cli
from gpuplat.cli.group import COMMANDS, cli
from tests.support.cli import run

COMMAND_MODULES = {"cost", "moves", "project", "terraform", "vendor"}


def _loaded(args: list[str], into: Path) -> set[str]:
    """The modules a gpuplat process has loaded when it ends."""
    code = (
        "import atexit, sys\n"
        f"atexit.register(lambda: open({str(into)!r}, 'w').write('\\n'.join(sys.modules)))\n"
        f"sys.argv = ['gpuplat', *{args!r}]\n"
        "from gpuplat.launch import main\n"
        "main()\n"
    )
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    return set(into.read_text().split())


def test_every_command_is_listed_with_the_module_that_defines_it() -> None:
    for info in pkgutil.iter_modules(gpuplat.cli.__path__):
        importlib.import_module(f"gpuplat.cli.{info.name}")
    defined = {name: c.callback.__module__ for name, c in cli.commands.items() if c.callback}
    assert {name: f"gpuplat.cli.{module}" for name, module in COMMANDS.items()} == defined
    assert set(COMMANDS.values()) == COMMAND_MODULES


def test_validate_imports_no_other_command(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    imported = _loaded(["-C", str(project), "validate"], tmp_path / "modules")
    assert "gpuplat.cli.project" in imported
    assert not {f"gpuplat.cli.{m}" for m in COMMAND_MODULES - {"project"}} & imported


def test_help_still_lists_every_command() -> None:
    out = run("--help").stdout
    for name in COMMANDS:
        assert f"\n  {name} " in out


def test_spec_models_are_built_when_first_used() -> None:
    """Importing the spec models builds no validator: only a validation builds the ones it needs."""
    code = (
        "from gpuplat.spec.model import Spec\n"
        "from gpuplat.catalog.model import Shape\n"
        "print(Spec.__pydantic_complete__, Shape.__pydantic_complete__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_no_pydantic_plugin_is_looked_for(tmp_path: Path) -> None:
    """An installed pydantic plugin (found through its package's entry points) is never loaded."""
    site = tmp_path / "site"
    dist = site / "spy_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: spy-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[pydantic]\nspy = spy_plugin:plugin\n")
    marker = tmp_path / "loaded"
    (site / "spy_plugin.py").write_text(
        f"import pathlib\npathlib.Path({str(marker)!r}).write_text('loaded')\nplugin = object()\n"
    )
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), *sys.path[1:]])
    subprocess.run(
        [sys.executable, "-m", "gpuplat", "-C", str(project), "validate"],
        env=env,
        capture_output=True,
        check=True,
    )
    assert not marker.exists()
