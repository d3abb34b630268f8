"""Test-wide settings."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from datetime import date

import pytest
from hypothesis import settings

from gpuplat.catalog.cache import ENV_VAR as CACHE_VAR
from gpuplat.clock import ENV_VAR
from tests.support.order import estimated_cost, spread

# Python may cache compiled bytecode (in the __pycache__ folders git ignores). CI and many
# machines set PYTHONDONTWRITEBYTECODE; then every gpuplat and stand-in process a test starts
# compiles each gpuplat module it imports again (0.1-0.2 CPU s a process, hundreds of
# processes in a run), and every xdist worker rewrites every test module's asserts again.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# terraform and its providers are Go programs; the aws provider builds its whole schema at
# every start. Collecting garbage at 5x the live heap instead of 2x spends less CPU on it
# (terraform validate/plan/test of the EKS roots: 22.2 -> 18.6 CPU s, a few % more memory).
# A value already set wins.
os.environ.setdefault("GOGC", "400")

# The catalog cache (gpuplat.catalog.cache): one folder per test process, made empty, so no run
# reads entries another run (or the developer's own gpuplat) wrote; the processes a test starts
# inherit it.
os.environ[CACHE_VAR] = tempfile.mkdtemp(prefix="gpuplat-test-cache-")
atexit.register(shutil.rmtree, os.environ[CACHE_VAR], ignore_errors=True)

# Timing belongs to bench/: on a loaded 2-CPU runner a slow example is not a failure.
settings.register_profile("gpuplat", deadline=None)
settings.load_profile("gpuplat")

WORKERS_PER_CPU = 2
"""``-n auto`` starts this many xdist workers per CPU. Most of the suite's time is spent
waiting: on terraform and its provider processes, on moto, on gpuplat run as a subprocess.
A worker that waits leaves its CPU to another (2 CPUs: 4 workers)."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own reading of it
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CPU * (cpus or 1)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under xdist, the long test files first in each worker's share (tests/support/order.py)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return
    per_file: dict[str, int] = {}
    for item in items:
        per_file[_file(item)] = per_file.get(_file(item), 0) + 1

    def cost(item: pytest.Item) -> float:
        markers = {mark.name for mark in item.iter_markers()}
        return estimated_cost(_file(item), markers, per_file[_file(item)])

    items[:] = spread(items, workers, _file, cost)


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


TODAY = date(2026, 12, 2)
"""The day every test judges the support calendar by (the day the calendar was read): the
same warnings whatever the machine's date. Tests of another day pass it explicitly."""


@pytest.fixture(autouse=True)
def _pinned_today(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(ENV_VAR, TODAY.isoformat())
    yield
