"""Test-wide settings."""

from __future__ import annotations

from hypothesis import settings

# Timing belongs to bench/: on a loaded 2-CPU runner a slow example is not a failure.
settings.register_profile("gpuplat", deadline=None)
settings.load_profile("gpuplat")
