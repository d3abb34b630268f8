"""AKS capacity ladders: one node pool per rung (a capacity reservation group, regular VMs,
Spot), tried in order by AKS's cluster autoscaler with the priority expander.

AKS runs the autoscaler itself; its node groups are the pools' virtual machine scale sets,
which AKS names ``aks-<pool>-<digits>-vmss`` in the node resource group. AKS pool names are
lowercase letters and digits, so ``^aks-<pool>-[0-9]+-vmss$`` needs no escaping and matches one
pool's scale set only: the dash after the name ends it, so no pool's pattern matches another
pool whose name it begins.
"""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.ladder import Ladder
from gpuplat.spec.locate import Locator
from gpuplat.targets.aks.checks import reservation_group

KINDS = ("reservation", "on-demand", "spot")
"""What AKS ladders climb through: Azure sells no flex-start or Capacity Blocks."""


def vmss_pattern(pool: str) -> str:
    """The exact pattern of the scale set AKS creates for node pool ``pool``."""
    return f"^aks-{pool}-[0-9]+-vmss$"


def check(lad: Ladder, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """Reservation rungs: a capacity reservation group's resource id, and no GKE-only keys."""
    for rung in lad.rungs:
        path = (*base, *rung.path)
        mapping = lad.written(rung)
        if rung.kind != "reservation":
            continue
        for key in ("block", "project"):
            if mapping is not None and getattr(mapping, key) is not None:
                yield loc.error(
                    (*path, key),
                    f"{key} belongs to a GKE reservation; an AKS reservation rung names a "
                    "capacity reservation group",
                    f"remove {key}",
                    at_key=True,
                )
        where = (*path, "reservation") if mapping is not None else path
        yield from reservation_group(rung.reservation, where, "rung", loc)
