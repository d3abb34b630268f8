"""CDKTF 0.21.0 (Python, on Node through jsii) in its own virtualenv, ``.venv-cdktf``.

Like checkov's ``.venv-security``: CDKTF is no dependency of gpuplat or of its dev tools, so
the tests create the virtualenv themselves on first use (one pip install from PyPI, ~20 s),
under a file lock so parallel test workers create it once.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.realparts import REPO, missing

CDKTF = "cdktf==0.21.0"
VENV = Path(os.environ.get("GPUPLAT_CDKTF_VENV", REPO / ".venv-cdktf"))


def cdktf_python() -> Path:
    """The virtualenv's python, with ``cdktf`` importable; created when missing."""
    if shutil.which("node") is None:
        missing("node (jsii runs CDKTF's JavaScript core on it) is not on PATH")
    python = VENV / "bin" / "python"
    stamp = VENV / f".installed-{CDKTF}"
    if stamp.is_file():
        return python
    VENV.parent.mkdir(parents=True, exist_ok=True)
    with (VENV.parent / ".venv-cdktf.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.is_file():
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
            done = subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", CDKTF],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                missing(f"pip could not install {CDKTF}: {done.stderr.strip()[-500:]}")
            stamp.write_text(CDKTF + "\n", encoding="utf-8")
    return python
