"""The catalog cache: a second process reads validated data files from disk, never a stale,
foreign or damaged entry, and a folder it cannot write costs nothing but time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import gpuplat
from gpuplat.catalog import cache, files
from gpuplat.catalog.model import GpusFile, ShapesFile

LOOKUP = """\
import sys
from gpuplat import catalog
shape = catalog.shape("gke", "g2-standard-8")
print(shape.gpu_model, shape.gpu_count, "yaml" in sys.modules)
"""


def _lookup(cache_dir: Path | str) -> list[str]:
    env = dict(os.environ, **{cache.ENV_VAR: str(cache_dir)})
    done = subprocess.run(
        [sys.executable, "-c", LOOKUP], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def test_a_second_process_reads_the_catalog_without_parsing_yaml(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    assert _lookup(folder) == ["L4", "1", "True"]
    written = sorted(p.name for p in folder.iterdir())
    assert written and all(n.startswith("catalog-") and n.endswith(".pickle") for n in written)
    assert any(n.startswith(f"catalog-gke-{gpuplat.__version__}-") for n in written)
    assert _lookup(folder) == ["L4", "1", "False"]
    assert sorted(p.name for p in folder.iterdir()) == written  # nothing more, no temp files


def test_an_unwritable_folder_falls_back_silently(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert _lookup(blocker / "cache") == ["L4", "1", "True"]
    assert _lookup(blocker / "cache") == ["L4", "1", "True"]


def test_the_key_follows_the_bytes_the_model_and_the_version(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path))
    one = cache.entry("gpus", b"gpu_models: []\n", GpusFile)
    assert one.parent == tmp_path
    assert cache.entry("gpus", b"gpu_models: []\n", GpusFile) == one
    assert cache.entry("gpus", b"gpu_models: [] \n", GpusFile) != one
    assert cache.entry("gpus", b"gpu_models: []\n", ShapesFile) != one
    monkeypatch.setattr(cache, "__version__", "99.0.0")
    assert cache.entry("gpus", b"gpu_models: []\n", GpusFile) != one


def test_the_default_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.ENV_VAR)
    monkeypatch.setenv("XDG_CACHE_HOME", "/x/cache")
    assert cache.folder() == Path("/x/cache/gpuplat")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.folder() == Path.home() / ".cache" / "gpuplat"


@pytest.mark.parametrize("damage", ["truncated", "writable by others", "another model"])
def test_an_unsound_entry_is_read_from_the_data_file_and_replaced(
    damage: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path))
    first = files.parse("gpus", GpusFile)
    (entry,) = tmp_path.iterdir()
    good = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(good[: len(good) // 2])
    elif damage == "writable by others":
        entry.chmod(0o666)
    else:
        cache.store(entry, files.parse("ec2", ShapesFile))
    assert cache.load(entry, GpusFile) is None
    assert files.parse("gpus", GpusFile) == first
    assert entry.stat().st_mode & 0o777 == 0o600
    assert cache.load(entry, GpusFile) == first


def test_processes_filling_one_folder_at_once_leave_whole_entries(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    env = dict(os.environ, **{cache.ENV_VAR: str(folder)})
    procs = [
        subprocess.Popen([sys.executable, "-c", LOOKUP], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outs = [p.communicate()[0].split() for p in procs]
    assert [p.returncode for p in procs] == [0] * 4
    assert [out[:2] for out in outs] == [["L4", "1"]] * 4  # parsed, or read what another wrote
    entries = sorted(folder.iterdir())
    assert entries and all(e.suffix == ".pickle" for e in entries)  # no temporary file left
    assert _lookup(folder) == ["L4", "1", "False"]
