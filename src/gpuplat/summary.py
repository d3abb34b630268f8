"""A Terraform plan told in the spec's terms: per cluster, pool and workload, and the GPU delta."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from gpuplat.addresses import PROTECTED_TYPES, Element, element_of, resource_type
from gpuplat.cost.planned import Billed, CostDelta, cluster_zones, cost_delta
from gpuplat.spec.units import GpuUnit
from gpuplat.targets import target_of_resource
from gpuplat.targets.planvalues import first
from gpuplat.terraform import Action, Plan, ResourceChange
from gpuplat.workload.serving import GPU_RESOURCE

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


@dataclass(frozen=True)
class ServedGpus:
    """GPUs the plan's model server Deployments request at their replica count, before and
    after (what terraform sets: a count the autoscaler owns stays as it is)."""

    before: int
    after: int
    units: tuple[str, ...] = ()
    """After the plan, per unit: ``24 x 3g.40gb on 12 H100-80GB`` (a MIG slice or a share of a
    GPU is one nvidia.com/gpu unit, not one GPU)."""

    def text(self) -> str:
        delta = self.after - self.before
        sign = f" ({'+' if delta > 0 else ''}{delta})" if delta else ""
        return f"GPUs the model servers request: {self.before} -> {self.after}{sign}"

    def units_text(self) -> str | None:
        """What the count is in, e.g. ``in units: 24 x 3g.40gb on 12 H100-80GB``."""
        return f"in units: {'; '.join(self.units)}" if self.units else None


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
    served: ServedGpus | None = None
    waits_for: str | None = None
    cluster: str = ""
    cost: CostDelta | None = None
    """The cluster's bill per month at min and max nodes, before and after: ``cost``'s figure."""
    warnings: list[str] = field(default_factory=list)
    """What the cloud says about changes that need care (e.g. reserved capacity updated)."""
    outputs: list[str] = field(default_factory=list)
    """Root outputs the plan changes (e.g. ``placements`` after a role change): a change to
    apply like any other, since what reads them (a front door, CI) follows the state."""
    running: dict[str, int] = field(default_factory=dict)
    """Model server Deployment address -> the replicas it runs now (the refreshed state: what
    an autoscaler or ``kubectl scale`` set, which terraform leaves alone)."""

    @property
    def has_changes(self) -> bool:
        return self.status == "planned" and (any(self.counts.values()) or bool(self.outputs))

    def protected(self) -> list[tuple[Element, str, str]]:
        """(element, what, verb) for every destroy or replace of something hard to get back."""
        out = []
        for changes in self.elements:
            for address, verb in changes.resources:
                kind = PROTECTED_TYPES.get(resource_type(address))
                if kind is not None and verb in ("destroy", "replace"):
                    out.append((changes.element, kind, verb))
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "environment": self.env,
            "cluster": self.cluster,
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
            "served_gpus": None
            if self.served is None
            else {"before": self.served.before, "after": self.served.after},
            "cost": None if self.cost is None else self.cost.to_json(),
            "warnings": list(self.warnings),
            "outputs": list(self.outputs),
            "running_replicas": dict(self.running),
        }

    def lines(self) -> list[str]:
        """Human summary lines (no colour)."""
        if self.status == "waits":
            return [
                f"  {self.stage}: waits for {self.waits_for} (planned once {self.waits_for} is applied)"
            ]
        if not self.has_changes:
            return [f"  {self.stage}: no changes", *(f"    ! {w}" for w in self.warnings)]
        counts = ", ".join(
            f"{self.counts.get(v, 0)} to {v}" for v in ("create", "update", "replace", "destroy")
        )
        out = [f"  {self.stage}: {counts}"]
        if self.outputs:
            out.append(f"    outputs to change: {', '.join(self.outputs)}")
        width = max((len(c.element.label()) for c in self.elements), default=0)
        for changes in self.elements:
            detail = ", ".join(f"{n} {v}" for v, n in sorted(changes.actions.items()))
            out.append(
                f"    {changes.element.label():<{width}}  {changes.headline():<8} ({detail})"
            )
            out.extend(f"      {reason}" for reason in changes.reasons)
        out.extend(f"    ! {warning}" for warning in self.warnings)
        if self.gpus is not None:
            out.append(f"    {self.gpus.text()}")
        if self.served is not None:
            out.append(f"    {self.served.text()}")
            units = self.served.units_text()
            if units is not None:
                out.append(f"      {units}")
        if self.cost is not None:
            out.append(f"    {self.cost.text()}")
            out.extend(f"      ? {reason}" for reason in self.cost.unknown())
            if self.cost.not_counted:
                out.append("      not counted: " + "; ".join(self.cost.not_counted))
        return out


def summarize(
    env: str,
    stage: str,
    plan: Plan,
    table: dict[str, Element],
    regions: Mapping[str, str] | None = None,
    *,
    cluster: str = "",
    bill: Billed | None = None,
) -> StageSummary:
    """Group a plan's resource changes by spec element; add up the node pools' GPUs and cost.

    ``regions`` (cluster name -> region, from the spec) prices the pools where they run;
    ``bill`` (the spec's cluster) prices the rest of its bill as ``gpuplat cost`` does.
    """
    grouped: dict[Element, ElementChanges] = {}
    counts: Counter[str] = Counter()
    for change in plan.changes:
        verb = VERBS.get(change.action)
        if verb is None:
            continue
        element = element_of(change.address, table, cluster)
        entry = grouped.setdefault(element, ElementChanges(element))
        entry.actions[verb] += 1
        entry.resources.append((change.address, verb))
        counts[verb] += 1
        if change.action is Action.REPLACE:
            entry.reasons.append(_reason(change))
    elements = sorted(
        grouped.values(), key=lambda c: (_KIND_ORDER.get(c.element.kind, 9), c.element.name)
    )
    summary = StageSummary(
        env, stage, "planned", dict(counts), elements, gpu_delta(plan), cluster=cluster
    )
    summary.served = served_gpus(plan, table)
    summary.cost = cost_delta(plan, table, regions, bill=bill)
    summary.warnings = pool_warnings(plan)
    summary.outputs = [o.name for o in plan.output_changes if o.is_change]
    summary.running = running_replicas(plan)
    return summary


def pool_warnings(plan: Plan) -> list[str]:
    """Each cloud's warnings about pool resources the plan updates in place."""
    out: list[str] = []
    for change in plan.changes:
        cloud = target_of_resource(change.type)
        if (
            cloud is None
            or change.type != cloud.pool_resource
            or change.action is not Action.UPDATE
        ):
            continue
        warning = cloud.pool_update_warning(change.before, change.after)
        if warning is not None:
            out.append(warning)
    return out


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
    """GPUs at the pools' min and max node counts before and after the plan, or None.

    The node pools of one capacity ladder share its cap (each may grow to all of it), so a
    ladder counts its cap once at max: the largest of its rungs, not their sum.
    """
    totals = [0, 0, 0, 0]
    ladders: dict[tuple[int, str], int] = {}
    seen = False
    zones = cluster_zones(plan)
    for change in plan.resource_changes:
        cloud = target_of_resource(change.type)
        if cloud is None or change.type != cloud.pool_resource:
            continue
        seen = True
        for slot, values in ((0, change.before), (1, change.after)):
            if not isinstance(values, dict) or (slot == 1 and change.action is Action.DELETE):
                continue
            planned = cloud.planned_pool(values, zones.get(slot))
            bounds = planned.gpu_bounds() if planned is not None else None
            if bounds is None:
                continue
            totals[slot] += bounds[0]
            if planned is not None and planned.ladder is not None:
                key = (slot, planned.ladder)
                ladders[key] = max(ladders.get(key, 0), bounds[1])
            else:
                totals[slot + 2] += bounds[1]
    if not seen:
        return None
    for (slot, _), most in ladders.items():
        totals[slot + 2] += most
    return GpuDelta(totals[0], totals[1], totals[2], totals[3])


SERVER_RESOURCE = "kubernetes_deployment_v1"
"""The typed resource of a model server's Deployment (module model-server)."""
GROUP_RESOURCE = "kubernetes_manifest"
"""The resource type of a multi-host server's LeaderWorkerSet (module model-server's group)."""


def served_gpus(plan: Plan, table: Mapping[str, Element] | None = None) -> ServedGpus | None:
    """GPUs the model servers' Deployments request before and after the plan, or None.

    A Deployment requests its replicas times the GPUs of one pod (every container's
    ``nvidia.com/gpu`` limit). Counts that terraform leaves to the autoscaler
    (``ignore_changes``) are planned as they are in the state, so the delta is what the apply
    itself does, e.g. a failover's replaced Deployment starting at its minimum.
    """
    totals = [0, 0]
    seen = False
    units: dict[GpuUnit | None, int] = {}
    for change in plan.resource_changes:
        if change.type != SERVER_RESOURCE or change.mode != "managed":
            continue
        seen = True
        for slot, values in ((0, change.before), (1, change.after)):
            if slot == 1 and change.action is Action.DELETE:
                continue
            count = _deployment_gpus(values)
            totals[slot] += count
            if slot == 1 and count:
                unit = element_of(change.address, dict(table or {})).unit
                units[unit] = units.get(unit, 0) + count
    named = tuple(
        unit.count(n) if unit is not None else f"{n} x GPU unit (pools of several kinds)"
        for unit, n in units.items()
    )
    return ServedGpus(totals[0], totals[1], named if table else ()) if seen else None


def running_replicas(plan: Plan) -> dict[str, int]:
    """Model server Deployment address -> replicas before the plan (the refreshed state); a
    multi-host server's LeaderWorkerSet address -> its groups (see :func:`set_count`)."""
    out: dict[str, int] = {}
    for change in plan.resource_changes:
        if change.type == GROUP_RESOURCE and change.mode == "managed":
            groups = set_count(change.before)
            if groups is not None:
                out[change.address] = groups
            continue
        if change.type != SERVER_RESOURCE or change.mode != "managed":
            continue
        replicas = first(change.before, "spec").get("replicas")
        count = str(replicas) if isinstance(replicas, int | str) else ""
        if count.isdigit():
            out[change.address] = int(count)
    return out


def set_count(values: object) -> int | None:
    """Groups a LeaderWorkerSet runs in a ``kubernetes_manifest``'s refreshed state, or None
    for another kind. The live object's ``spec.replicas`` (the provider reads it back, KEDA's
    count included), else the count the manifest names; 0 when neither says (an autoscaled
    set whose object was never read back)."""
    manifest = values.get("manifest") if isinstance(values, Mapping) else None
    if not isinstance(manifest, Mapping) or manifest.get("kind") != "LeaderWorkerSet":
        return None
    live = values.get("object") if isinstance(values, Mapping) else None
    for source in (live, manifest):
        spec = source.get("spec") if isinstance(source, Mapping) else None
        count = spec.get("replicas") if isinstance(spec, Mapping) else None
        if isinstance(count, int) and not isinstance(count, bool):
            return count
    return 0


def _deployment_gpus(values: object) -> int:
    spec = first(values, "spec")
    pod = first(first(spec, "template"), "spec")
    per_pod = 0
    containers = pod.get("container")
    for container in containers if isinstance(containers, list) else []:
        limits = first(container, "resources").get("limits")
        count = limits.get(GPU_RESOURCE) if isinstance(limits, Mapping) else None
        if isinstance(count, str) and count.isdigit():
            per_pod += int(count)
    # The provider types replicas as a string (a number in older versions' states).
    replicas = spec.get("replicas")
    count = str(replicas) if isinstance(replicas, int | str) else ""
    return per_pod * int(count) if count.isdigit() else 0
