"""GKE against the support calendar: a minor past standard support (only the Extended channel
keeps it, for an extra fee), not yet in the cluster's channel, and the charts that must cover
the minor. A cluster that names no version gets its channel's default, which GKE supports."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from gpuplat import catalog
from gpuplat.catalog import ChartPin
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster
from gpuplat.targets import support

DEFAULT_CHANNEL = "REGULAR"
"""The release channel a cluster that names none is enrolled in (gke infra renders it)."""


def channel(cluster: Cluster) -> str:
    """The cluster's release channel as the spec names it (NONE: no channel)."""
    return cluster.kubernetes.release_channel or DEFAULT_CHANNEL


def check(
    cluster: Cluster,
    minor: str,
    charts: Mapping[str, ChartPin],
    base: KeyPath,
    loc: Locator,
    today: date,
) -> Iterator[Diagnostic]:
    """The cluster's minor in its channel on ``today``, and the charts that must cover it."""
    path = support.version_path(base)
    enrolled = channel(cluster)
    found = catalog.support("gke", minor, today)
    hint = support.move_hint("gke", today, "GKE")
    why = support.provenance(found)
    window = found.window
    if found.phase == "unlisted":
        yield support.unlisted(found, "GKE", path, loc, today)
    elif found.phase == "ended":
        yield loc.warning(
            path,
            f"GKE {minor} reached the end of extended support on {found.since}: GKE creates no "
            f"{minor} clusters in any channel",
            hint,
            details=why,
        )
    elif found.phase == "extended" and enrolled == "EXTENDED":
        until = f" until {found.until}" if found.until else ""
        yield loc.warning(
            path,
            f"GKE {minor} is in extended support since {found.since}{until}: the Extended "
            f'channel keeps cluster "{cluster.name}" on it for an extra cluster fee '
            f"({_fee()})",
            hint,
            details=why,
        )
    elif found.phase == "extended":
        yield loc.warning(
            path,
            f"GKE {minor} reached the end of standard support on {found.since}: only the "
            f"Extended channel creates {minor} clusters, and the {enrolled} channel of "
            f'cluster "{cluster.name}" upgrades them',
            f"{hint}; or set release_channel: EXTENDED (an extra fee while in extended support)",
            details=why,
        )
    elif enrolled != "RAPID" and found.phase == "not_yet":
        yield loc.warning(
            path,
            f"GKE offers {minor} in the Regular channel from {found.until}; the {enrolled} "
            f'channel of cluster "{cluster.name}" does not create it before',
            f"{hint}; or set release_channel: RAPID",
            details=why,
        )
    elif enrolled != "RAPID" and window is not None and window.available is None:
        yield from _channel_only(minor, enrolled, cluster, path, loc, hint, why)
    yield from support.chart_windows(cluster, minor, charts, base, loc)


def _channel_only(
    minor: str,
    enrolled: str,
    cluster: Cluster,
    path: KeyPath,
    loc: Locator,
    hint: str,
    why: tuple[str, ...],
) -> Iterator[Diagnostic]:
    """A minor with no Regular date: what the channels offered when the calendar was read."""
    snapshot = catalog.cloud_calendar("gke").channels
    if snapshot is None or enrolled not in snapshot.minors:
        return
    newest = snapshot.minors[enrolled][1]
    if catalog.minor_key(minor) <= catalog.minor_key(newest):
        return
    offering = sorted(
        name
        for name, (_, top) in snapshot.minors.items()
        if catalog.minor_key(top) >= catalog.minor_key(minor)
    )
    where = ", ".join(offering) if offering else "no channel"
    yield loc.warning(
        path,
        f"GKE offered {minor} in {where} only when its channels were read ({snapshot.as_of}); "
        f'the {enrolled} channel of cluster "{cluster.name}" offered up to {newest}',
        f"{hint}; or set release_channel: RAPID",
        details=why,
    )


def _fee() -> str:
    fee = catalog.cluster_fee("gke", "extended")
    if fee is None or fee.usd_per_hour is None:
        return "no figure in gpuplat's catalog"
    unverified = ", unverified: Google's pricing page gives no figure" if fee.unverified else ""
    return f"${fee.usd_per_hour:.2f}/h per cluster in total{unverified}"


def fee_tier(cluster: Cluster, minor: str | None, today: date) -> str | None:
    """The extended tier while an Extended-channel cluster's minor is in extended support."""
    if minor is None or channel(cluster) != "EXTENDED":
        return None
    return "extended" if catalog.support("gke", minor, today).phase == "extended" else None
