"""The front door of a workload: per placement, weighted health-checked DNS records.

(Cloud DNS holds every placement in one record set: its own root, render/door.py.)

Each cluster's serving root holds its own placement's records (one Route 53 module call, or one
Traffic Manager endpoint), so a cluster is applied with its own cloud's credentials plus the
DNS cloud's, and a cloud that is down never blocks the records of the others. A Traffic
Manager profile is one object: the serving root of the workload's first cluster creates it
(with its monitor and the optional Azure DNS alias); the others add their endpoint to it by
its id, which is known before it exists. The record waits for the model server in the
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

MODULES = {"route53": "route53-weighted-record", "traffic_manager": "traffic-manager-endpoint"}
"""The module of each kind of front door, one call per placement."""
PROVIDERS = {"route53": "aws", "traffic_manager": "azurerm"}
"""The provider each kind of front door's module is given (aliased ``front_door``)."""
PROVIDER_ALIAS = "front_door"
SERVING_WEIGHT = 100
"""Weight of a serving placement (Route 53 allows 0..255, Traffic Manager 1..1000): two serving
placements split the traffic evenly; a standby's 0 keeps it out while one with a weight is
healthy (on Traffic Manager, which has no 0, its endpoint is disabled)."""
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
    """The placement's front-door module call, or None when the workload has no front door in
    its clusters' serving roots (none, or Cloud DNS's, which is a root of its own)."""
    door = workload.front_door
    if door is None or door.dns not in MODULES:
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
        # An HTTP probe through the interceptor would be held and counted: the checkers
        # (Route 53's from several regions every 30 s, Traffic Manager's probing agents) would
        # keep a GPU replica up. A TCP check sees that the load balancer and the interceptor
        # answer, not the server.
        health.update(port=http.interceptor_port, type="TCP")
    address = raw(f"module.{ident(address_module(plan, server))}.address")
    weight = SERVING_WEIGHT if plan.primary else 0
    args: dict[str, object]
    if door.dns == "route53":
        args = {
            "zone_id": door.zone_id,
            "name": door.name,
            "placement": {"set_identifier": f"{plan.name}@{plan.cluster}", "label": plan.cluster},
            "address": address,
            "weight": weight,
            "ttl": door.ttl,
            "health": health,
        }
    else:
        args = _traffic_manager_args(workload, plan.cluster)
        args.update(
            endpoint=f"{plan.name}-{plan.cluster}",
            address=address,
            weight=weight,
            ttl=door.ttl,
            health=health,
        )
    return {
        "module": module_label("door", plan.name, plan.cluster),
        "source": MODULES[door.dns],
        "provider": PROVIDERS[door.dns],
        "after": address_module(plan, server),
        "args": args,
    }


def _traffic_manager_args(workload: Workload, cluster: str) -> dict[str, object]:
    """The profile and its DNS alias: created by the workload's first cluster's root."""
    door = workload.front_door
    assert door is not None and door.traffic_manager is not None  # the spec checks say so
    tm = door.traffic_manager
    home = cluster == workload.clusters[0]
    args: dict[str, object] = {
        "profile": {
            "name": door.profile,
            "resource_group_name": tm.resource_group,
            "subscription_id": tm.subscription_id,
            "create": home,
        },
        "name": door.name,
    }
    if home and tm.dns_zone is not None:
        zone = tm.dns_zone.rstrip(".")
        args["dns_zone"] = {
            "name": zone,
            "resource_group_name": tm.dns_zone_resource_group or tm.resource_group,
            "record": door.name.rstrip(".")[: -len(zone) - 1],
        }
    return args


def provider_views(workloads: list[Workload]) -> list[dict[str, object]]:
    """The providers the serving root's front doors use (none without a front door).

    Route 53 is a global service: its API is in us-east-1 whichever region the zone serves.
    Traffic Manager is global too: its provider needs the profile's subscription only.
    """
    doors = [w.front_door for w in workloads if w.front_door is not None]
    doors = [d for d in doors if d.dns in MODULES]
    views: list[dict[str, object]] = []
    route53 = [d for d in doors if d.dns == "route53"]
    if route53:
        endpoint = next((d.endpoint for d in route53 if d.endpoint), None)
        views.append(
            {"name": "aws", "alias": PROVIDER_ALIAS, "region": "us-east-1", "endpoint": endpoint}
        )
    managers = [d.traffic_manager for d in doors if d.traffic_manager is not None]
    if managers:
        views.append(
            {
                "name": "azurerm",
                "alias": PROVIDER_ALIAS,
                "subscription_id": managers[0].subscription_id,
            }
        )
    return views
