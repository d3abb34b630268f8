"""Reading planned resource values (``terraform show -json``) without trusting their shape."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gpuplat.catalog import Cloud
from gpuplat.labels import POOL_LABEL
from gpuplat.spec.ladder import RUNG_LABEL


@dataclass(frozen=True, slots=True)
class PlannedPool:
    """A node pool as a plan's resource values describe it, in the spec's terms."""

    cloud: Cloud
    machine_type: str | None
    capacity: str
    """on-demand, spot, reservation, flex-start, queued or capacity-block."""
    min_nodes: int
    max_nodes: int
    gpus_per_node: int | None = None
    attached: tuple[str, int] | None = None
    """GPUs attached to the host shape (accelerator, count) and priced apart from it."""
    ladder: str | None = None
    """The pool whose capacity ladder this node pool is a rung of (its rungs share one cap)."""
    max_price: float | None = None
    """AKS spot: the most USD an hour a node may cost before it is evicted."""

    def gpu_bounds(self) -> tuple[int, int] | None:
        """(GPUs at min, at max nodes), or None when the GPU count is unknown."""
        if self.gpus_per_node is None:
            return None
        return self.min_nodes * self.gpus_per_node, self.max_nodes * self.gpus_per_node


def first(values: object, key: str) -> Mapping[str, object]:
    """The first block of a nested block list (``autoscaling[0]``), or an empty mapping."""
    if isinstance(values, Mapping):
        items = values.get(key)
        if isinstance(items, list) and items and isinstance(items[0], Mapping):
            return items[0]
    return {}


def number(values: Mapping[str, object], *keys: str) -> int | None:
    """The first of ``keys`` that holds a number, as an int."""
    for key in keys:
        value = values.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return int(value)
    return None


def ladder_of(labels: object) -> str | None:
    """The laddered pool a node pool is a rung of, read from its node labels (else None)."""
    if not isinstance(labels, Mapping) or RUNG_LABEL not in labels:
        return None
    pool = labels.get(POOL_LABEL)
    return pool if isinstance(pool, str) else None


class PlanHooks:
    """How a target reads its resources in a plan; the defaults read none."""

    def planned_pool(
        self, values: Mapping[str, object], zones: int | None = None
    ) -> PlannedPool | None:
        """A planned pool resource (``pool_resource``) in the spec's terms, or None; ``zones``
        are the plan's cluster's (:meth:`planned_zones`), for a pool that names none."""
        return None

    def planned_zones(self, values: Mapping[str, object]) -> int | None:
        """Zones a planned cluster resource spreads its node pools over, where it counts."""
        return None
