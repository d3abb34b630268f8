"""The support calendar and the chart support data: the instances that started them, worked by
hand from the sources, and the integrity of the files."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from gpuplat import catalog
from gpuplat.catalog import CLOUDS, files
from gpuplat.catalog.calendar import CalendarFile, day
from gpuplat.catalog.chartlines import ChartSupportFile, version_key
from gpuplat.catalog.loader import CatalogDataError

TODAY = date(2026, 12, 2)


def _yaml(data: object) -> bytes:
    """A data file's bytes holding ``data`` (JSON is YAML)."""
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("cloud", "minor", "on", "phase", "since"),
    [
        # EKS: extended support (and its fee) from 00:00 UTC on the end-of-standard day.
        ("eks", "1.33", TODAY, "extended", date(2026, 7, 29)),
        ("eks", "1.33", date(2026, 7, 28), "standard", date(2025, 5, 29)),
        ("eks", "1.34", TODAY, "extended", date(2026, 12, 2)),
        ("eks", "1.31", TODAY, "ended", date(2026, 11, 26)),
        ("eks", "1.35", TODAY, "standard", date(2026, 1, 28)),
        # AKS: "Jul 2026" / "Nov 2026" end of life run to the month's last day.
        ("aks", "1.33", TODAY, "extended", date(2026, 7, 31)),
        ("aks", "1.34", TODAY, "extended", date(2026, 11, 30)),
        ("aks", "1.34", date(2026, 11, 29), "standard", date(2025, 11, 1)),
        ("aks", "1.36", TODAY, "standard", date(2026, 6, 1)),
        # GKE: end of standard support; no end of extended support was read.
        ("gke", "1.34", TODAY, "extended", date(2026, 10, 1)),
        ("gke", "1.35", TODAY, "standard", date(2026, 2, 11)),
    ],
)
def test_worked_phases(cloud: Any, minor: str, on: date, phase: str, since: date) -> None:
    found = catalog.support(cloud, minor, on)
    assert (found.phase, found.since) == (phase, since)


def test_a_minor_before_its_release_and_one_not_listed() -> None:
    early = catalog.support("eks", "1.36", date(2026, 6, 1))
    assert (early.phase, early.until) == ("not_yet", date(2026, 6, 2))
    assert catalog.support("eks", "1.28", TODAY).phase == "unlisted"
    assert catalog.support("gke", "1.99", TODAY).window is None


def test_month_only_dates() -> None:
    assert day("2026-11", end=True) == date(2026, 11, 30)
    assert day("2028-02", end=True) == date(2028, 2, 29)
    assert day("2026-11", end=False) == date(2026, 11, 1)
    assert day("2026-11-01", end=True) == date(2026, 11, 1)


def test_every_cloud_has_a_calendar_with_sources() -> None:
    known = {src.id for src in catalog.sources()}
    for cloud in CLOUDS:
        cal = catalog.cloud_calendar(cloud)
        assert cal.minors and set(cal.source) <= known
        for row in cal.minors:
            assert row.source and set(row.source) <= known, row
            assert set(row.unverified_fields) <= set(type(row).model_fields), row
    channels = catalog.cloud_calendar("gke").channels
    assert channels is not None and channels.unverified
    assert set(channels.minors) == {"RAPID", "REGULAR", "STABLE", "EXTENDED", "NONE"}


def test_the_autoscaler_chart_the_examples_pinned_ships_1_33() -> None:
    lines = catalog.chart_support("cluster-autoscaler")
    assert lines is not None
    old = lines.release("9.51.0")
    assert old is not None and old.app_version == "1.33.0"
    assert old.covers("1.33") and not old.covers("1.34")
    newest_134 = lines.newest_for("1.34")
    assert newest_134 is not None and newest_134.version == "9.53.0"
    assert lines.newest_for("1.36") is None  # autoscaler 1.36 is tagged, no chart ships it yet


def test_the_efa_chart_the_examples_pinned_lists_no_p5en_nor_p6() -> None:
    lines = catalog.chart_support("aws-efa-k8s-device-plugin")
    assert lines is not None
    for itype in ("p5en.48xlarge", "p6-b200.48xlarge", "p6-b300.48xlarge"):
        assert not lines.lists("v0.5.5", itype)
    assert lines.lists("v0.5.5", "p5e.48xlarge") and lines.lists("v0.5.5", "p5.48xlarge")
    assert lines.instance_types["p5en.48xlarge"] == "v0.5.6"


@pytest.mark.parametrize("name", ["aws-efa-k8s-device-plugin", "cluster-autoscaler", "keda"])
def test_pins_are_releases_the_chart_data_knows(name: str) -> None:
    lines = catalog.chart_support(name)
    assert lines is not None
    pin = catalog.chart(name)
    assert lines.release(pin.version) is not None, pin.version
    if name != "keda":  # the newest chart versions; KEDA's data holds the pinned line only
        assert pin.version == lines.newest().version


def test_the_pinned_efa_chart_lists_every_efa_shape_of_the_catalog() -> None:
    lines = catalog.chart_support("aws-efa-k8s-device-plugin")
    assert lines is not None
    pin = catalog.chart("aws-efa-k8s-device-plugin").version
    efa = [s.name for s in catalog.shapes("eks") if s.efa]
    assert "p5en.48xlarge" in efa and "p6-b300.48xlarge" in efa
    assert [name for name in efa if not lines.lists(pin, name)] == []


def test_releases_are_in_order_and_dated() -> None:
    for lines in catalog.chart_supports():
        keys = [version_key(r.version) for r in lines.releases]
        assert keys == sorted(keys, reverse=True), lines.name
        dated = [r.released for r in lines.releases if r.released is not None]
        assert dated == sorted(dated, reverse=True), lines.name


def test_calendar_data_refuses_rows_out_of_order(monkeypatch: pytest.MonkeyPatch) -> None:
    row = {
        "minor": "1.33",
        "available": "2025-05-29",
        "end_of_standard": "2026-07-29",
        "end_of_extended": "2027-07-29",
        "source": ["s"],
        "as_of": "2026-12-02",
    }
    cloud = {"cloud": "eks", "extended": "x", "source": ["s"], "as_of": "2026-12-02"}
    for minors, message in (
        ([{**row, "end_of_standard": "2028-01-01"}], "its dates are not in order"),
        ([row, {**row, "minor": "1.32"}], "oldest first"),
        ([{**row, "minor": "1.33.1"}], "String should match"),
    ):
        data = {"as_of": "2026-12-02", "clouds": [{**cloud, "minors": minors}]}
        monkeypatch.setattr(files, "data_file", lambda stem, data=data: _yaml(data))
        with pytest.raises(CatalogDataError, match=message):
            files.parse("calendar", CalendarFile)


def test_chart_data_refuses_an_instance_type_of_an_unknown_release(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chart = {
        "name": "c",
        "chart": "c",
        "basis": "b",
        "source": ["s"],
        "as_of": "2026-12-02",
        "releases": [{"version": "v1.0.0", "released": "2026-01-01"}],
        "instance_types": {"p5.48xlarge": "v0.9.0"},
    }
    monkeypatch.setattr(
        files, "data_file", lambda stem: _yaml({"as_of": "2026-12-02", "charts": [chart]})
    )
    with pytest.raises(CatalogDataError, match="unknown releases"):
        files.parse("chart_support", ChartSupportFile)
