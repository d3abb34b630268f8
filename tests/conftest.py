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

TODAY = date(2026, 12, 2)
"""The day every test judges the support calendar by (the day the calendar was read): the
same warnings whatever the machine's date. Tests of another day pass it explicitly."""


@pytest.fixture(autouse=True)
def _pinned_today(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(ENV_VAR, TODAY.isoformat())
    yield
