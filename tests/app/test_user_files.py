"""OS errors on the user's files are clear errors with the path and the reason, never bugs.

A folder is made read-only for real: with chmod when the tests run as a normal user (root
ignores permission bits), else with a read-only bind mount. Neither is a simulation: the
operating system itself refuses gpuplat's writes.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.cli import run
from tests.support.realparts import missing


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` refuse writes (the real kernel refusing them), then restore it."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
        for path in modes:
            path.chmod(modes[path] & ~0o222)
        try:
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    bound = subprocess.run(["mount", "--bind", str(folder), str(folder)], check=False)
    if bound.returncode != 0:
        missing("cannot make a folder read-only: running as root and `mount --bind` refused")
    try:
        ro = subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(folder)], check=False, capture_output=True
        )
        if ro.returncode != 0:
            missing(f"cannot remount {folder} read-only: {ro.stderr!r}")
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_a_read_only_project_is_a_clear_error_and_the_tree_stays(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    assert run("render", cwd=project).exit_code == 0
    overlay = project / "envs" / "dev.yaml"
    overlay.write_text(overlay.read_text().replace("max_nodes: 2", "max_nodes: 3"))
    before = snapshot(project)
    with read_only(project):
        done = run("render", cwd=project)
    assert done.exit_code == 1, done.stderr
    lock_file = project / ".gpuplat" / "locks" / "render.lock"
    # As root the mount refuses with EROFS; as a user, chmod makes it EACCES.
    reason, hint = (
        ("Read-only file system", "the file system is read-only: run gpuplat on a writable copy")
        if os.geteuid() == 0
        else ("Permission denied", "you may not write there: fix the folder's permissions or run")
    )
    assert done.stderr.startswith(
        f"Error: cannot take the render lock: {lock_file}: {reason}\nHint: {hint}"
    ), done.stderr
    assert "internal error" not in done.stderr
    assert snapshot(project) == before


def test_a_read_only_manifests_folder_is_a_clear_error(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    with read_only(out):
        done = run("render", "--manifests", str(out / "k8s"), cwd=project)
    assert done.exit_code == 1, done.stderr
    assert done.stderr.startswith(f"Error: cannot write the manifests to {out / 'k8s'}: "), (
        done.stderr
    )
    assert "Read-only file system" in done.stderr or "Permission denied" in done.stderr
    assert "internal error" not in done.stderr
    assert not (project / "envs" / "dev").exists(), "a failed render writes no tree"


def test_a_file_where_a_folder_belongs_is_a_clear_error(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert run("init", str(project)).exit_code == 0
    (tmp_path / "notes.txt").write_text("a file, not a folder\n")
    done = run("render", "--manifests", str(tmp_path / "notes.txt" / "k8s"), cwd=project)
    assert done.exit_code == 1, done.stderr
    assert done.stderr.startswith(
        f"Error: cannot write the manifests to {tmp_path / 'notes.txt' / 'k8s'}: "
    )
    assert "Not a directory" in done.stderr
    assert "Hint: a file stands where gpuplat needs a folder: move it away\n" in done.stderr


def test_init_into_a_read_only_folder(tmp_path: Path) -> None:
    target = tmp_path / "ro"
    target.mkdir()
    with read_only(target):
        done = run("init", str(target))
    assert done.exit_code == 1, done.stderr
    assert done.stderr.startswith(f"Error: cannot write the example project into {target}: ")
    assert "internal error" not in done.stderr
