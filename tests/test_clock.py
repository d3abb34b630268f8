"""Today's date: GPUPLAT_TODAY when set, the system date otherwise, a clear error when wrong."""

from __future__ import annotations

from datetime import date

import pytest

from gpuplat import clock
from gpuplat.errors import GpuplatError


def test_the_variable_names_the_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(clock.ENV_VAR, "2027-03-27")
    assert clock.today() == date(2027, 3, 27)


@pytest.mark.parametrize("value", ["", "  "])
def test_unset_or_empty_is_the_system_date(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(clock.ENV_VAR, value)
    assert clock.today() == date.today()
    monkeypatch.delenv(clock.ENV_VAR)
    assert clock.today() == date.today()


@pytest.mark.parametrize("value", ["2026-13-01", "20261202", "2026-12", "tomorrow"])
def test_a_bad_value_is_an_error_that_says_how(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(clock.ENV_VAR, value)
    with pytest.raises(GpuplatError, match="is not a date") as raised:
        clock.today()
    assert raised.value.hint is not None and "YYYY-MM-DD" in raised.value.hint
