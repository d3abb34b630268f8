"""The front door of a workload: per placement, weighted health-checked DNS records.

Each cluster's serving root holds its own placement's records (one Route 53 module call), so a
cluster is applied with its own cloud's credentials plus the DNS cloud's, and a cloud that is
down never blocks the records of the others. The record waits for the model server in the
same root (``depends_on``): a placement's weight rises only after terraform has waited for its
rollout. Its weight is its role's: above 0 while it serves, 0 as a warm or cold standby.
"""

from __future__ import annotations

from gpuplat.hcl.writer import ident, raw
from gpuplat.render.naming import module_label
from gpuplat.spec.model import Workload
from gpuplat.workload.serving import ServingPlan

MODULE = "route53-weighted-record"
PROVIDER_ALIAS = "front_door"
SERVING_WEIGHT = 100
"""Weight of a serving placement (Route 53 allows 0..255): two serving placements split the
traffic evenly; a standby's 0 keeps it out while one with a weight is healthy."""
INTERVAL_SECONDS = 30
"""Route 53's standard health check interval (10 s is the fast one, billed higher)."""
FAILURE_THRESHOLD = 3


def door_view(
    plan: ServingPlan, workload: Workload, server_module: str
) -> dict[str, object] | None:
    """The placement's Route 53 module call, or None when the workload has no front door."""
    door = workload.front_door
    if door is None:
        return None
    return {
        "module": module_label("door", plan.name, plan.cluster),
        "after": server_module,
        "args": {
            "zone_id": door.zone_id,
            "name": door.name,
            "placement": {"set_identifier": f"{plan.name}@{plan.cluster}", "label": plan.cluster},
            "address": raw(f"module.{ident(server_module)}.address"),
            "weight": SERVING_WEIGHT if plan.primary else 0,
            "ttl": door.ttl,
            "health": {
                "path": plan.probes.path,
                "port": plan.port,
                "interval": INTERVAL_SECONDS,
                "failure_threshold": FAILURE_THRESHOLD,
            },
        },
    }


def provider_view(workloads: list[Workload]) -> dict[str, object] | None:
    """The aws provider the serving root's Route 53 records use, or None without a front door.

    Route 53 is a global service: its API is in us-east-1 whichever region the zone serves.
    """
    doors = [w.front_door for w in workloads if w.front_door is not None]
    if not doors:
        return None
    endpoint = next((d.endpoint for d in doors if d.endpoint), None)
    return {"alias": PROVIDER_ALIAS, "region": "us-east-1", "endpoint": endpoint}
