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
from gpuplat.render.serving import ServerView
from gpuplat.spec.model import Workload
from gpuplat.workload.scaling import InterceptorDoor
from gpuplat.workload.serving import ServingPlan

MODULE = "route53-weighted-record"
PROVIDER_ALIAS = "front_door"
SERVING_WEIGHT = 100
"""Weight of a serving placement (Route 53 allows 0..255): two serving placements split the
traffic evenly; a standby's 0 keeps it out while one with a weight is healthy."""
INTERVAL_SECONDS = 30
"""Route 53's standard health check interval (10 s is the fast one, billed higher)."""
FAILURE_THRESHOLD = 3


def door_of(plan: ServingPlan) -> InterceptorDoor | None:
    """The load balancer in front of a scale-to-zero placement's interceptor, if any."""
    http = plan.scaler.http if plan.scaler is not None else None
    return http.door if http is not None else None


def address_module(plan: ServingPlan, server: ServerView) -> str:
    """The module call whose ``address`` output is the placement's load balancer: the
    scale-to-zero module's (in front of the interceptor) or the model server's."""
    return server.zero_module if door_of(plan) is not None else server.module


def door_view(
    plan: ServingPlan, workload: Workload, server: ServerView
) -> dict[str, object] | None:
    """The placement's Route 53 module call, or None when the workload has no front door."""
    door = workload.front_door
    if door is None:
        return None
    health: dict[str, object] = {
        "path": plan.probes.path,
        "port": plan.port,
        "interval": INTERVAL_SECONDS,
        "failure_threshold": FAILURE_THRESHOLD,
    }
    zero = door_of(plan)
    http = plan.scaler.http if plan.scaler is not None else None
    if zero is not None and http is not None:
        # An HTTP probe through the interceptor would be held and counted: Route 53's
        # checkers, from several regions every 30 s, would keep a GPU replica up. A TCP
        # check sees that the load balancer and the interceptor answer, not the server.
        health.update(port=http.interceptor_port, type="TCP")
    return {
        "module": module_label("door", plan.name, plan.cluster),
        "after": address_module(plan, server),
        "args": {
            "zone_id": door.zone_id,
            "name": door.name,
            "placement": {"set_identifier": f"{plan.name}@{plan.cluster}", "label": plan.cluster},
            "address": raw(f"module.{ident(address_module(plan, server))}.address"),
            "weight": SERVING_WEIGHT if plan.primary else 0,
            "ttl": door.ttl,
            "health": health,
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
