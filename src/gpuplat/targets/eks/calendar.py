"""EKS against the support calendar: a minor in extended support (and its fee) or past it, the
charts that must cover the minor, and the EFA instance types the pinned device plugin lists."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from gpuplat import catalog
from gpuplat.catalog import ChartPin
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Rung
from gpuplat.targets import support


def check(
    cluster: Cluster,
    minor: str,
    charts: Mapping[str, ChartPin],
    base: KeyPath,
    loc: Locator,
    today: date,
) -> Iterator[Diagnostic]:
    """The cluster's minor on ``today``, the charts that must cover it, and EFA instance types."""
    path = support.version_path(base)
    named = cluster.kubernetes.version is not None
    said = f"EKS {minor}" if named else f"EKS {minor} (gpuplat's default: no kubernetes.version)"
    found = catalog.support("eks", minor, today)
    hint = support.move_hint("eks", today, "EKS")
    why = support.provenance(found)
    if found.phase == "unlisted":
        yield support.unlisted(found, "EKS", path, loc, today)
    elif found.phase == "not_yet":
        yield loc.warning(path, f"{said} is not released before {found.until}", hint, details=why)
    elif found.phase == "ended":
        yield loc.warning(
            path,
            f"{said} reached the end of extended support on {found.since}: EKS creates no "
            f"{minor} clusters and upgrades the control planes of existing ones by itself",
            hint,
            details=why,
        )
    elif found.phase == "extended":
        yield loc.warning(
            path,
            f"{said} is in extended support since {found.since} (until {found.until}): "
            f'cluster "{cluster.name}" pays {_fee("extended")} instead of {_fee(None)}',
            hint,
            details=why,
        )
    yield from support.chart_windows(cluster, minor, charts, base, loc)
    yield from _efa_chart(cluster, charts, base, loc)


def _fee(tier: str | None) -> str:
    fee = catalog.cluster_fee("eks", tier)
    if fee is None or fee.usd_per_hour is None:
        return "an unknown fee"
    return f"${fee.usd_per_hour:.2f}/h per cluster"


def _efa_chart(
    cluster: Cluster, charts: Mapping[str, ChartPin], base: KeyPath, loc: Locator
) -> Iterator[Diagnostic]:
    """EFA pools whose instance types the pinned EFA device plugin chart does not list."""
    pin = charts.get("aws-efa-k8s-device-plugin")
    lines = catalog.chart_support("aws-efa-k8s-device-plugin")
    if pin is None or lines is None:
        return
    for j, pool in enumerate(cluster.node_pools):
        if not pool.efa:
            continue
        types = [((*base, "node_pools", j, "machine_type"), pool.machine_type)]
        types += [
            ((*base, "node_pools", j, "extra_machine_types", k), name)
            for k, name in enumerate(pool.extra_machine_types)
        ]
        # A ladder rung's own instance type is a node group of its own on that type.
        rungs = pool.capacity if isinstance(pool.capacity, list) else []
        types += [
            ((*base, "node_pools", j, "capacity", k, "machine_type"), rung.machine_type)
            for k, rung in enumerate(rungs)
            if isinstance(rung, Rung) and rung.machine_type is not None
        ]
        for path, itype in types:
            shape = catalog.shape("eks", itype)
            if lines.lists(pin.version, itype) or (shape is not None and not shape.efa):
                continue  # a type without EFA is the EFA check's error
            first = lines.instance_types.get(itype)
            yield loc.warning(
                path,
                f"the EFA device plugin chart gpuplat pins ({pin.version}) does not list "
                f'{itype}: on pool "{pool.name}" no pod advertises vpc.amazonaws.com/efa and '
                "NCCL falls back to TCP",
                f"chart {first} and later list it"
                if first is not None
                else f"no {pin.chart} release in gpuplat's calendar lists it; use an instance "
                "type it lists (e.g. p5.48xlarge), or remove efa",
                details=(lines.basis, f"chart data read {lines.as_of}"),
            )
