"""The real `terraform fmt -check` over a folder: which files it would rewrite, with the diff."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.realparts import terraform_bin, terraform_env


def fmt_problems(folder: Path, scratch: Path) -> str:
    """`terraform fmt -check -diff -recursive` on ``folder``: "" when every file is fmt-clean.

    One call covers any number of files, so callers batch many rendered trees under one folder
    (terraform's start-up dominates a single small check).
    """
    done = subprocess.run(
        [terraform_bin(), "fmt", "-check", "-diff", "-recursive", "-no-color", str(folder)],
        capture_output=True,
        text=True,
        env=terraform_env(scratch),
        timeout=300,
        check=False,
    )
    if done.returncode == 0:
        return ""
    return (done.stdout + done.stderr) or f"terraform fmt exited {done.returncode}"
