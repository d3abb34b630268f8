"""What each version of a chart supports: the instance types it runs on, the Kubernetes minors
it is built or tested for, and when it was published.

Read from ``data/chart_support.yaml``; the component names are those of ``charts.yaml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType

from pydantic import Field, model_validator

from gpuplat.catalog.calendar import MinorText, minor_key
from gpuplat.catalog.files import CatalogDataError, parse
from gpuplat.catalog.model import AsOf, Checked, Record, Sources, Text


def version_key(version: str) -> tuple[int, ...]:
    """``"v0.5.30"`` -> (0, 5, 30): chart versions in release order."""
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


class ChartRelease(Record):
    """One published version of a chart."""

    version: Text
    app_version: Text | None = None
    released: AsOf | None
    kubernetes: tuple[MinorText, MinorText] | None = None
    """The oldest and newest Kubernetes minor it covers, where its makers state it."""

    def covers(self, minor: str) -> bool | None:
        """Whether it covers a Kubernetes minor; None when nothing is stated."""
        if self.kubernetes is None:
            return None
        low, high = (minor_key(m) for m in self.kubernetes)
        return low <= minor_key(minor) <= high


class ChartSupport(Checked):
    """A chart's releases and what each supports.

    ``instance_types`` maps an instance type to the first release whose node affinity lists it
    (no release since has dropped one; the refresh script refuses the data otherwise).
    """

    name: Text
    chart: Text
    basis: Text
    source: Sources
    as_of: AsOf
    releases: list[ChartRelease]
    instance_types: dict[Text, Text] = Field(default_factory=dict)
    note: Text | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ChartSupport:
        versions = [r.version for r in self.releases]
        if len(set(versions)) != len(versions):
            raise ValueError(f"{self.name}: a release is listed twice")
        unknown = sorted(set(self.instance_types.values()) - set(versions))
        if unknown:
            raise ValueError(f"{self.name}: instance types name unknown releases {unknown}")
        return self

    def release(self, version: str) -> ChartRelease | None:
        """The release of that version, or None when the data does not list it."""
        return next((r for r in self.releases if r.version == version), None)

    def newest(self) -> ChartRelease:
        """The newest release listed."""
        return max(self.releases, key=lambda r: version_key(r.version))

    def lists(self, version: str, instance_type: str) -> bool:
        """Whether that release's node affinity lists an instance type."""
        first = self.instance_types.get(instance_type)
        return first is not None and version_key(version) >= version_key(first)

    def newest_for(self, minor: str) -> ChartRelease | None:
        """The newest release that covers a Kubernetes minor, or None when none does."""
        fitting = [r for r in self.releases if r.covers(minor)]
        return max(fitting, key=lambda r: version_key(r.version)) if fitting else None


class ChartSupportFile(Record):
    as_of: AsOf
    charts: list[ChartSupport]


@functools.cache
def _table() -> Mapping[str, ChartSupport]:
    table: dict[str, ChartSupport] = {}
    for entry in parse("chart_support", ChartSupportFile).charts:
        if entry.name in table:
            raise CatalogDataError(f"chart_support.yaml: duplicate chart {entry.name!r}")
        table[entry.name] = entry
    return MappingProxyType(table)


def chart_support(name: str) -> ChartSupport | None:
    """Return what the versions of a chart support.

    Args:
        name: Component name as in ``charts.yaml``, e.g. ``cluster-autoscaler``.

    Returns:
        Its releases, or None when the catalog records no support data for it.
    """
    return _table().get(name)


def chart_supports() -> tuple[ChartSupport, ...]:
    """Return the support data of every chart that has some, in catalog order."""
    return tuple(_table().values())
