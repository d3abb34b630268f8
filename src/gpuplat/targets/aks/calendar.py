"""AKS against the support calendar: a minor past its end of life (creatable only with long-term
support, on the Premium tier gpuplat does not render), past its LTS, or not yet GA, and the
charts that must cover the minor."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from gpuplat import catalog
from gpuplat.catalog import ChartPin
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster
from gpuplat.targets import support


def check(
    cluster: Cluster,
    minor: str,
    charts: Mapping[str, ChartPin],
    base: KeyPath,
    loc: Locator,
    today: date,
) -> Iterator[Diagnostic]:
    """The cluster's minor on ``today`` and the charts that must cover it."""
    path = support.version_path(base)
    found = catalog.support("aks", minor, today)
    hint = support.move_hint("aks", today, "AKS")
    why = support.provenance(found)
    if found.phase == "unlisted":
        yield support.unlisted(found, "AKS", path, loc, today)
    elif found.phase == "not_yet":
        yield loc.warning(
            path, f"AKS {minor} is not generally available before {found.until}", hint, details=why
        )
    elif found.phase == "extended":
        yield loc.warning(
            path,
            f"AKS {minor} reached its end of life on {found.since}: AKS creates {minor} "
            "clusters only with long-term support, which needs the Premium tier (gpuplat "
            "renders the Free tier)",
            hint,
            details=why,
        )
    elif found.phase == "ended":
        yield loc.warning(
            path,
            f"AKS {minor} reached the end of long-term support on {found.since}: AKS creates "
            f"no {minor} clusters on any tier",
            hint,
            details=why,
        )
    yield from support.chart_windows(cluster, minor, charts, base, loc)
