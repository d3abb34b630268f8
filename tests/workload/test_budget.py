"""Worked examples of the startup arithmetic."""

from __future__ import annotations

from gpuplat.workload.budget import load_seconds, startup_budget


def test_140_gb_at_400_mbps_plus_a_3_minute_pull() -> None:
    # 140 GB / 400 MB/s = 350 s of weight loading, plus 180 s of image pull = 530 s.
    budget = startup_budget(140, 400, pull_seconds=180, load_time_budget=0)
    assert budget.load_seconds == 350
    assert budget.estimate_seconds == 530
    assert budget.window_seconds == 530
    assert (budget.period_seconds, budget.failure_threshold) == (10, 53)
    assert budget.probe_allows_seconds >= 530


def test_a_longer_load_time_budget_widens_the_probe() -> None:
    budget = startup_budget(140, 400, pull_seconds=180, load_time_budget=15 * 60)
    assert budget.estimate_seconds == 530
    assert budget.failure_threshold == 90
    assert budget.probe_allows_seconds == 900


def test_probe_always_covers_the_estimate_rounding_up() -> None:
    # 6.5 GB at 400 MB/s = 16.25 s -> 17 s; 240 s pull; 257 s -> 26 periods of 10 s.
    budget = startup_budget(6.5, 400, pull_seconds=240, load_time_budget=0)
    assert budget.estimate_seconds == 257
    assert budget.failure_threshold == 26
    assert budget.probe_allows_seconds == 260


def test_load_seconds_decimal_units() -> None:
    assert load_seconds(1, 1000) == 1
    assert load_seconds(29.6, 800) == 37
