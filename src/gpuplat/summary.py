"""A Terraform plan told in the spec's terms: per cluster, pool and workload, and the GPU delta."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from gpuplat import catalog
from gpuplat.addresses import PROTECTED_TYPES, Element, element_of
from gpuplat.cost.planned import CostDelta, cost_delta
from gpuplat.terraform import Action, Plan, ResourceChange

VERBS = {
    Action.CREATE: "create",
    Action.UPDATE: "update",
    Action.REPLACE: "replace",
    Action.DELETE: "destroy",
}


@dataclass
class ElementChanges:
    """What a plan does to one spec element."""

    element: Element
    actions: Counter[str] = field(default_factory=Counter)
    reasons: list[str] = field(default_factory=list)
    resources: list[tuple[str, str]] = field(default_factory=list)

    def headline(self) -> str:
        """The strongest action: a replace or destroy outranks updates and creates."""
        for verb in ("destroy", "replace", "update", "create"):
            if self.actions[verb]:
                return verb
        return "no-op"


@dataclass(frozen=True)
class GpuDelta:
    """GPUs the plan's node pools hold at their bounds, before and after."""

    min_before: int
    min_after: int
    max_before: int
    max_after: int

    def text(self) -> str:
        def one(before: int, after: int) -> str:
            delta = after - before
            sign = f" ({'+' if delta > 0 else ''}{delta})" if delta else ""
            return f"{before} -> {after}{sign}"

        return f"GPUs at min: {one(self.min_before, self.min_after)}; at max: {one(self.max_before, self.max_after)}"


@dataclass
class StageSummary:
    """One stage's plan in spec terms."""

    env: str
    stage: str
    status: str
    """planned, no-changes, waits (for an earlier stage), failed."""
    counts: dict[str, int] = field(default_factory=dict)
    elements: list[ElementChanges] = field(default_factory=list)
    gpus: GpuDelta | None = None
    waits_for: str | None = None
    cost: CostDelta | None = None
    """Node pools and cluster fees per month at min and max nodes, before and after."""

    @property
    def has_changes(self) -> bool:
        return self.status == "planned" and any(self.counts.values())

    def protected(self) -> list[tuple[Element, str, str]]:
        """(element, what, verb) for every destroy or replace of something hard to get back."""
        out = []
        for changes in self.elements:
            for address, verb in changes.resources:
                kind = PROTECTED_TYPES.get(_type_of(address))
                if kind is not None and verb in ("destroy", "replace"):
                    out.append((changes.element, kind, verb))
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "environment": self.env,
            "stage": self.stage,
            "status": self.status,
            "waits_for": self.waits_for,
            "counts": self.counts,
            "elements": [
                {
                    "kind": c.element.kind,
                    "name": c.element.name,
                    "action": c.headline(),
                    "actions": dict(c.actions),
                    "replace_reasons": c.reasons,
                    "resources": [{"address": a, "action": v} for a, v in c.resources],
                }
                for c in self.elements
            ],
            "gpus": None
            if self.gpus is None
            else {
                "min_before": self.gpus.min_before,
                "min_after": self.gpus.min_after,
                "max_before": self.gpus.max_before,
                "max_after": self.gpus.max_after,
            },
            "cost": None if self.cost is None else self.cost.to_json(),
        }

    def lines(self) -> list[str]:
        """Human summary lines (no colour)."""
        if self.status == "waits":
            return [
                f"  {self.stage}: waits for {self.waits_for} (planned once {self.waits_for} is applied)"
            ]
        if not self.has_changes:
            return [f"  {self.stage}: no changes"]
        counts = ", ".join(
            f"{self.counts.get(v, 0)} to {v}" for v in ("create", "update", "replace", "destroy")
        )
        out = [f"  {self.stage}: {counts}"]
        width = max((len(c.element.label()) for c in self.elements), default=0)
        for changes in self.elements:
            detail = ", ".join(f"{n} {v}" for v, n in sorted(changes.actions.items()))
            out.append(
                f"    {changes.element.label():<{width}}  {changes.headline():<8} ({detail})"
            )
            out.extend(f"      {reason}" for reason in changes.reasons)
        if self.gpus is not None:
            out.append(f"    {self.gpus.text()}")
        if self.cost is not None:
            out.append(f"    {self.cost.text()}")
            out.extend(f"      ? {reason}" for reason in self.cost.unknown())
        return out


def _type_of(address: str) -> str:
    parts = [p for p in address.split(".") if p]
    # module.<label>.<type>.<name>[index] -> type; <type>.<name> -> type
    while parts and parts[0] == "module":
        parts = parts[2:]
    return parts[0] if parts else ""


def summarize(
    env: str,
    stage: str,
    plan: Plan,
    table: dict[str, Element],
    regions: Mapping[str, str] | None = None,
) -> StageSummary:
    """Group a plan's resource changes by spec element; add up the node pools' GPUs and cost.

    ``regions`` (cluster name -> region, from the spec) prices the pools where they run.
    """
    grouped: dict[Element, ElementChanges] = {}
    counts: Counter[str] = Counter()
    for change in plan.changes:
        verb = VERBS.get(change.action)
        if verb is None:
            continue
        element = element_of(change.address, table)
        entry = grouped.setdefault(element, ElementChanges(element))
        entry.actions[verb] += 1
        entry.resources.append((change.address, verb))
        counts[verb] += 1
        if change.action is Action.REPLACE:
            entry.reasons.append(_reason(change))
    elements = sorted(
        grouped.values(), key=lambda c: (_KIND_ORDER.get(c.element.kind, 9), c.element.name)
    )
    summary = StageSummary(env, stage, "planned", dict(counts), elements, gpu_delta(plan))
    summary.cost = cost_delta(plan, table, regions)
    return summary


_KIND_ORDER = {"cluster": 0, "pool": 1, "platform": 2, "workload": 3, "other": 4}


def _reason(change: ResourceChange) -> str:
    paths = [".".join(str(step) for step in path) for path in change.replace_paths]
    short = (
        change.address.split(".", 2)[-1] if change.address.startswith("module.") else change.address
    )
    if paths:
        return f"{short}: {', '.join(paths)} forces replacement"
    if change.action_reason:
        return f"{short}: {change.action_reason.replace('_', ' ')}"
    return f"{short}: replaced"


def gpu_delta(plan: Plan) -> GpuDelta | None:
    """GPUs at the pools' min and max node counts before and after the plan, or None."""
    totals = [0, 0, 0, 0]
    seen = False
    for change in plan.resource_changes:
        if change.type not in ("google_container_node_pool", "aws_eks_node_group"):
            continue
        seen = True
        for slot, values in ((0, change.before), (1, change.after)):
            if values is None or (slot == 1 and change.action is Action.DELETE):
                continue
            bounds = _pool_gpus(change.type, values)
            if bounds is not None:
                totals[slot] += bounds[0]
                totals[slot + 2] += bounds[1]
    if not seen:
        return None
    return GpuDelta(totals[0], totals[1], totals[2], totals[3])


def _first(values: object, key: str) -> dict[str, object]:
    if isinstance(values, dict):
        items = values.get(key)
        if isinstance(items, list) and items and isinstance(items[0], dict):
            return items[0]
    return {}


def _number(values: dict[str, object], *keys: str) -> int | None:
    for key in keys:
        value = values.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return int(value)
    return None


def _pool_gpus(kind: str, values: object) -> tuple[int, int] | None:
    """(GPUs at min, at max) of one node pool / node group from its plan values."""
    if not isinstance(values, dict):
        return None
    if kind == "google_container_node_pool":
        auto = _first(values, "autoscaling")
        accelerator = _first(_first(values, "node_config"), "guest_accelerator")
        gpus = _number(accelerator, "count")
        low = _number(auto, "total_min_node_count", "min_node_count")
        high = _number(auto, "total_max_node_count", "max_node_count")
        if "total_min_node_count" not in auto or auto.get("total_min_node_count") is None:
            zones = values.get("node_locations")
            factor = len(zones) if isinstance(zones, list) and zones else 1
            low = None if low is None else low * factor
            high = None if high is None else high * factor
    else:
        scaling = _first(values, "scaling_config")
        low, high = _number(scaling, "min_size"), _number(scaling, "max_size")
        gpus = _eks_gpus(values)
    if gpus is None or low is None or high is None:
        return None
    return low * gpus, high * gpus


def _eks_gpus(values: dict[str, object]) -> int | None:
    """Physical GPUs per node of a node group, from its instance type."""
    types = values.get("instance_types")
    if isinstance(types, list) and types and isinstance(types[0], str):
        shape = catalog.shape("eks", types[0])
        if shape is not None and shape.gpu_count:
            return shape.gpu_count
    return None
