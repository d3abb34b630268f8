"""Ctrl-C and SIGTERM at start-up and while a command's module loads: one "Interrupted.", 130.

Deterministic: the process signals itself at the moment a named module is first looked for
(a finder put first on ``sys.meta_path``), so no test waits for a moment to come.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplat.interrupt import INTERRUPTED, held
from tests.support.cli import run

TRIPWIRE = """\
import atexit, os, signal, sys

class Tripwire:
    def __init__(self, name, sig):
        self.name, self.sig, self.fired = name, sig, False

    def find_spec(self, name, path=None, target=None):
        if name == self.name and not self.fired:
            self.fired = True
            os.kill(os.getpid(), self.sig)
        return None

module, sig, loaded, *args = sys.argv[1:]
sys.meta_path.insert(0, Tripwire(module, getattr(signal, sig)))
atexit.register(lambda: open(loaded, "w").write("\\n".join(sys.modules)))
sys.argv = ["gpuplat", *args]
from gpuplat.launch import main
main()
"""


def _interrupted_at(module: str, sig: str, tmp_path: Path, *args: str) -> tuple[int, str, set[str]]:
    script = tmp_path / "tripwire.py"
    script.write_text(TRIPWIRE)
    loaded = tmp_path / "loaded"
    done = subprocess.run(
        [sys.executable, str(script), module, sig, str(loaded), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, done.stderr, set(loaded.read_text().split())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("interrupt") / "p"
    assert run("init", str(folder)).exit_code == 0
    return folder


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_while_click_loads_says_interrupted(sig: str, tmp_path: Path) -> None:
    """Before the command line exists: SIGTERM too takes Ctrl-C's way, not a silent 143."""
    code, err, _ = _interrupted_at("click", sig, tmp_path, "validate")
    assert (code, err) == (INTERRUPTED, "Interrupted.\n")


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_commands_module_is_loaded_whole_before_the_signal_is_taken(
    sig: str, tmp_path: Path, project: Path
) -> None:
    """The signal comes while gpuplat.cli.project imports its first module: that import ends,
    then the command ends with one message (no traceback, no half-loaded module)."""
    code, err, loaded = _interrupted_at(
        "gpuplat.cli.complete", sig, tmp_path, "-C", str(project), "validate"
    )
    assert (code, err) == (INTERRUPTED, "Interrupted.\n")
    assert {"gpuplat.cli.project", "gpuplat.cli.complete"} <= loaded
    assert "gpuplat.app.validate" not in loaded  # the command itself never started


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_while_the_command_loads_the_spec_models(
    sig: str, tmp_path: Path, project: Path
) -> None:
    """Deep inside the command's own import of its application module: that whole import ends
    (nothing cut half-way, no signal lost in the import machinery), then one message."""
    code, err, loaded = _interrupted_at(
        "gpuplat.spec.model", sig, tmp_path, "-C", str(project), "validate"
    )
    assert (code, err) == (INTERRUPTED, "Interrupted.\n")
    assert {"gpuplat.spec.model", "gpuplat.spec.load", "gpuplat.app.validate"} <= loaded


def test_held_takes_the_signal_after_the_block() -> None:
    steps = []
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), held():
        os.kill(os.getpid(), signal.SIGINT)
        steps.append("the block went on to its end")
    assert steps == ["the block went on to its end"]
    assert signal.getsignal(signal.SIGINT) is before


def test_held_leaves_an_ignored_signal_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with held():
            os.kill(os.getpid(), signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_signal_after_the_command_is_done_is_not_clicks_abort() -> None:
    """Once the command has finished, a Ctrl-C no longer reaches click's "Aborted!" (exit 1):
    settle() stops taking signals, and one that waited for an import's end is raised then."""
    code = (
        "import signal, os\n"
        "from gpuplat import interrupt\n"
        "interrupt.guard()\n"
        "interrupt._PENDING[0] = True\n"
        "try:\n"
        "    interrupt.settle()\n"
        "except KeyboardInterrupt:\n"
        "    print('raised')\n"
        "assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "interrupt.settle()\n"
        "print('ignored')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "raised\nignored\n", "")


def test_a_ctrl_c_while_the_guard_itself_loads_says_interrupted(tmp_path: Path) -> None:
    """The moment before Ctrl-C is gpuplat's to take: no traceback of the guard's own import."""
    code, err, _ = _interrupted_at("gpuplat.interrupt", "SIGINT", tmp_path, "validate")
    assert (code, err) == (INTERRUPTED, "Interrupted.\n")
