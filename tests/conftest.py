"""Test-wide settings."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from hypothesis import settings

from gpuplat.clock import ENV_VAR

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
