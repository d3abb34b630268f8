"""When each cloud creates and supports a Kubernetes minor version, as dated data.

Read from ``data/calendar.yaml``. Lookups that depend on the day take it as an argument: the
catalog never reads the clock (:mod:`gpuplat.clock` does, in one place). A date the source gives
as a month only counts from the month's first day when it starts something and to its last day
when it ends something.
"""

from __future__ import annotations

import calendar as months
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import StringConstraints, model_validator

from gpuplat.catalog.files import CatalogDataError, known_cloud, parse
from gpuplat.catalog.model import AsOf, Checked, Cloud, Record, Sources, Text

MinorText = Annotated[str, StringConstraints(pattern=r"^\d+\.\d+$")]
"""A Kubernetes minor version as text, e.g. ``1.34``."""

Phase = Literal["unlisted", "not_yet", "standard", "extended", "ended"]
"""Where a minor stands on a date: not in the calendar, not created yet, in standard support,
in extended support (EKS extended, AKS LTS, GKE Extended channel), or past every support."""


def minor_key(minor: str) -> tuple[int, int]:
    """``"1.34"`` -> (1, 34), for ordering minors.

    Raises:
        ValueError: ``minor`` is not major.minor.
    """
    found = re.fullmatch(r"(\d+)\.(\d+)", minor)
    if found is None:
        raise ValueError(f"not a minor version: {minor!r}")
    return int(found.group(1)), int(found.group(2))


def day(text: str, *, end: bool) -> date:
    """A calendar date: YYYY-MM-DD as it is, YYYY-MM as its first day (or its last when ``end``)."""
    if len(text) == 7:
        year, month = int(text[:4]), int(text[5:])
        return date(year, month, months.monthrange(year, month)[1] if end else 1)
    return date.fromisoformat(text)


class SupportWindow(Checked):
    """One minor version on one cloud: when it is created, and until when it is supported."""

    minor: MinorText
    available: AsOf | None
    end_of_standard: AsOf | None
    end_of_extended: AsOf | None
    source: Sources
    as_of: AsOf
    note: Text | None = None

    @model_validator(mode="after")
    def _in_order(self) -> SupportWindow:
        points = [
            day(text, end=i > 0)
            for i, text in enumerate((self.available, self.end_of_standard, self.end_of_extended))
            if text is not None
        ]
        if points != sorted(points):
            raise ValueError(f"{self.minor}: its dates are not in order")
        return self


class ChannelSnapshot(Checked):
    """GKE: the oldest and newest minor each release channel offered when the page was read."""

    minors: dict[Text, tuple[MinorText, MinorText]]
    source: Sources
    as_of: AsOf
    note: Text | None = None


class CloudCalendar(Record):
    """Every minor a cloud's calendar lists, and how it supports a minor past standard support."""

    cloud: Cloud
    extended: Text
    source: Sources
    as_of: AsOf
    minors: list[SupportWindow]
    channels: ChannelSnapshot | None = None

    @model_validator(mode="after")
    def _one_row_per_minor(self) -> CloudCalendar:
        keys = [minor_key(w.minor) for w in self.minors]
        if keys != sorted(set(keys)):
            raise ValueError(f"{self.cloud}: minors must be listed once each, oldest first")
        return self


class CalendarFile(Record):
    as_of: AsOf
    clouds: list[CloudCalendar]


@dataclass(frozen=True, slots=True)
class Support:
    """Where one minor stands on one cloud on a date.

    ``since`` is when the phase began and ``until`` when it ends, where the calendar knows.
    """

    cloud: Cloud
    minor: str
    phase: Phase
    window: SupportWindow | None
    since: date | None = None
    until: date | None = None


@functools.cache
def _file() -> CalendarFile:
    return parse("calendar", CalendarFile)


@functools.cache
def _calendars() -> Mapping[Cloud, CloudCalendar]:
    found = _file()
    table: dict[Cloud, CloudCalendar] = {}
    for entry in found.clouds:
        if entry.cloud in table:
            raise CatalogDataError(f"calendar.yaml: duplicate cloud {entry.cloud!r}")
        table[entry.cloud] = entry
    return MappingProxyType(table)


def cloud_calendar(cloud: Cloud) -> CloudCalendar:
    """Return a cloud's support calendar.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.

    Returns:
        Its minors, oldest first, and how it supports a minor past standard support.

    Raises:
        ValueError: ``cloud`` is not a known cloud.
        CatalogDataError: The calendar has no entry for the cloud.
    """
    found = _calendars().get(known_cloud(cloud))
    if found is None:
        raise CatalogDataError(f"calendar.yaml: no calendar for {cloud}")
    return found


def support_window(cloud: Cloud, minor: str) -> SupportWindow | None:
    """Return a minor's row of a cloud's calendar, or None when the calendar does not list it."""
    return next((w for w in cloud_calendar(cloud).minors if w.minor == minor), None)


def support(cloud: Cloud, minor: str, on: date) -> Support:
    """Return where a minor stands on a cloud on a date.

    Args:
        cloud: ``gke``, ``eks`` or ``aks``.
        minor: A Kubernetes minor version, e.g. ``1.34``.
        on: The day asked about.

    Returns:
        The phase, with the dates it began and ends where the calendar knows them. A support
        period ends at the start of its end date.
    """
    window = support_window(cloud, minor)
    if window is None:
        return Support(cloud, minor, "unlisted", None)
    start = day(window.available, end=False) if window.available else None
    standard = day(window.end_of_standard, end=True) if window.end_of_standard else None
    extended = day(window.end_of_extended, end=True) if window.end_of_extended else None
    if start is not None and on < start:
        return Support(cloud, minor, "not_yet", window, None, start)
    if extended is not None and on >= extended:
        return Support(cloud, minor, "ended", window, extended)
    if standard is not None and on >= standard:
        return Support(cloud, minor, "extended", window, standard, extended)
    return Support(cloud, minor, "standard", window, start, standard)


def calendar_as_of() -> str:
    """Return the date the calendar was last read from its sources (YYYY-MM-DD)."""
    return _file().as_of
