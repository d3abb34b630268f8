"""What the support calendar says of a cluster: the hooks a target answers, and the words every
cloud's checks share.

Each cloud's checks decide what a phase of its calendar means for a cluster (EKS bills extended
support, AKS creates past-end-of-life minors only with LTS, GKE only in its Extended channel);
this module words the parts they have in common: where the calendar's figures come from, the
minors a cloud supports on a day, a minor the calendar does not list, and the charts installed
on the cluster whose stated Kubernetes window leaves out its minor.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from gpuplat import catalog
from gpuplat.catalog import ChartPin, Cloud, Support
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster
from gpuplat.spec.resolve import version_tuple


def minor_of(version: str | None) -> str | None:
    """``"1.34"``, ``"1.34.1"`` or ``"1.34.1-gke.100"`` -> ``"1.34"``; None for anything else."""
    parsed = version_tuple(version) if version is not None else None
    return f"{parsed[0]}.{parsed[1]}" if parsed else None


class CalendarHooks:
    """What a target answers about the support calendar (the defaults: nothing to say)."""

    def kubernetes_minor(self, cluster: Cluster) -> str | None:
        """The minor the control plane runs (``1.35``): the spec's, or the one gpuplat renders
        when the spec names none; None when the cloud picks it."""
        return minor_of(cluster.kubernetes.version)

    def check_calendar(
        self,
        cluster: Cluster,
        base: KeyPath,
        loc: Locator,
        today: date,
        charts: Mapping[str, ChartPin],
    ) -> Iterator[Diagnostic]:
        """The cluster's minor and the ``charts`` installed on it against the support calendar
        on a day: past support, no longer created, or a chart that does not cover what it runs
        on."""
        return iter(())

    def fee_tier(self, cluster: Cluster, today: date) -> str | None:
        """The cluster-fee tier (pricing.yaml) the cluster is billed at on a day when it is not
        the default one, e.g. ``extended`` for a minor in extended support."""
        return None

    def planned_fee_tier(self, values: Mapping[str, object], today: date) -> str | None:
        """:meth:`fee_tier` of a planned cluster resource (the target's ``cluster_resource``)."""
        return None


def version_path(base: KeyPath) -> KeyPath:
    """Where a cluster names its Kubernetes version (its cluster, when it names none)."""
    return (*base, "kubernetes", "version")


def provenance(found: Support) -> tuple[str, ...]:
    """Detail lines: the sources of a calendar row, when they were read, what is unconfirmed."""
    window = found.window
    if window is None:
        cal = catalog.cloud_calendar(found.cloud)
        return (f"calendar: {_urls(cal.source)} (read {cal.as_of})",)
    lines = [f"calendar: {_urls(window.source)} (read {window.as_of})"]
    if window.unverified:
        what = ", ".join(window.unverified_fields) or "its dates"
        lines.append(f"unverified: {what} not confirmed on the cloud's own page")
    if window.note:
        lines.append(window.note)
    return tuple(lines)


def _urls(ids: tuple[str, ...]) -> str:
    return "; ".join(catalog.source(i).url.split(" ")[0] for i in ids)


def standard_minors(cloud: Cloud, on: date) -> tuple[str, ...]:
    """Minors in the cloud's standard support on a day, oldest first."""
    return tuple(
        w.minor
        for w in catalog.cloud_calendar(cloud).minors
        if catalog.support(cloud, w.minor, on).phase == "standard" and w.available is not None
    )


def move_hint(cloud: Cloud, on: date, title: str) -> str:
    """Which minors to move to: those in standard support on the day."""
    minors = standard_minors(cloud, on)
    if not minors:
        return f"check {title}'s calendar: gpuplat's lists no minor in standard support on {on}"
    quoted = " or ".join(f'"{m}"' for m in minors)
    return f"set kubernetes.version to {quoted} ({title} standard support on {on})"


def unlisted(found: Support, title: str, path: KeyPath, loc: Locator, on: date) -> Diagnostic:
    """A minor the cloud's calendar does not list: older than every row, or newer."""
    minors = [w.minor for w in catalog.cloud_calendar(found.cloud).minors]
    if catalog.minor_key(found.minor) < catalog.minor_key(minors[0]):
        message = (
            f"Kubernetes {found.minor} is older than every {title} minor in gpuplat's calendar "
            f"(oldest {minors[0]}): {title} no longer supports or creates it"
        )
    else:
        message = (
            f"Kubernetes {found.minor} is newer than every {title} minor in gpuplat's calendar "
            f"(newest {minors[-1]}, read {catalog.cloud_calendar(found.cloud).as_of}); "
            f"{title} may not create it yet"
        )
    return loc.warning(path, message, move_hint(found.cloud, on, title), details=provenance(found))


def chart_windows(
    cluster: Cluster, minor: str, charts: Mapping[str, ChartPin], base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """Charts installed on the cluster whose stated Kubernetes window leaves out its minor."""
    for name, pin in charts.items():
        data = catalog.chart_support(name)
        release = data.release(pin.version) if data is not None else None
        if data is None or release is None or release.kubernetes is None:
            continue
        if release.covers(minor):
            continue
        low, high = release.kubernetes
        span = low if low == high else f"{low} to {high}"
        better = data.newest_for(minor)
        hint = (
            f"chart {better.version} covers {minor}"
            if better is not None
            else f"no {pin.chart} release in gpuplat's calendar covers {minor}: run the "
            f"cluster at {span}, or knowingly outside what the chart's makers state"
        )
        yield loc.warning(
            version_path(base),
            f"chart {pin.chart} {pin.version} covers Kubernetes {span}, but cluster "
            f'"{cluster.name}" runs {minor}',
            hint,
            details=(data.basis, f"chart data: {_urls(data.source)} (read {data.as_of})"),
        )
