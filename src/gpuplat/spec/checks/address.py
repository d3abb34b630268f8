"""A workload's address outside its clusters and its front door: what each can stand in front of."""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpuplat.render.naming import door_folder
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec, Workload
from gpuplat.spec.model.frontdoor import FrontDoor
from gpuplat.targets import target

_PROFILE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
"""A Traffic Manager profile's relative DNS name: one DNS label."""
_CHECKERS = {
    "route53": "a Route 53 front door needs address.scheme external: its health checkers probe "
    "each placement's address from the internet",
    "traffic_manager": "a Traffic Manager front door needs address.scheme external: its "
    "monitor probes each endpoint from Azure's probing agents on the internet",
    "cloud_dns": "a Cloud DNS front door needs address.scheme external: its health check probes "
    "each placement's IP from Google Cloud regions over the internet",
}
_FOREIGN = {
    "zone_id": "route53",
    "endpoint": "route53",
    "traffic_manager": "traffic_manager",
    "cloud_dns": "cloud_dns",
}
"""Settings of one kind of front door, refused on the others."""


def check(workload: Workload, base: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    """A front door needs a public address (a scale-to-zero workload's is the interceptor's)
    and what its cloud needs: a zone you own, a name in it."""
    door = workload.front_door
    if door is None:
        return
    at = (*base, "front_door")
    if workload.address is None or workload.address.scheme != "external":
        # A record whose check never passes is never answered.
        yield loc.error(at, _CHECKERS[door.dns], "set address: {scheme: external}", at_key=True)
    if door.dns == "route53":
        yield from _route53(door, at, loc)
    elif door.dns == "cloud_dns":
        yield from _cloud_dns(door, at, loc)
    else:
        yield from _traffic_manager(door, at, loc)


def _route53(door: FrontDoor, at: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    if door.zone_id is None:
        yield loc.error(
            at,
            "a Route 53 front door needs zone_id: the hosted zone its records go in",
            "set zone_id to the id of a hosted zone you own that holds name (e.g. Z0123…)",
            at_key=True,
        )
    yield from _foreign(door, at, loc, ("traffic_manager", "cloud_dns"))


def _foreign(
    door: FrontDoor, at: KeyPath, loc: Locator, keys: tuple[str, ...]
) -> Iterator[Diagnostic]:
    for key in keys:
        if getattr(door, key) is not None:
            yield loc.error(
                (*at, key),
                f"{key} is for dns: {_FOREIGN[key]}",
                f"remove it, or set dns: {_FOREIGN[key]}",
                at_key=True,
            )


def _cloud_dns(door: FrontDoor, at: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    yield from _foreign(door, at, loc, ("zone_id", "endpoint", "traffic_manager"))
    if door.cloud_dns is None:
        yield loc.error(
            at,
            "a Cloud DNS front door needs cloud_dns: the project and the public managed zone "
            "its record set goes in",
            "add cloud_dns: {project: …, managed_zone: …}",
            at_key=True,
        )


def _traffic_manager(door: FrontDoor, at: KeyPath, loc: Locator) -> Iterator[Diagnostic]:
    for key in ("zone_id", "endpoint"):
        if getattr(door, key) is not None:
            yield loc.error(
                (*at, key),
                f"{key} is for a Route 53 front door; dns is traffic_manager",
                "remove it (an Azure DNS zone goes in traffic_manager.dns_zone)",
                at_key=True,
            )
    yield from _foreign(door, at, loc, ("cloud_dns",))
    tm = door.traffic_manager
    if tm is None:
        yield loc.error(
            at,
            "a Traffic Manager front door needs traffic_manager: the subscription and the "
            "resource group its profile goes in",
            "add traffic_manager: {subscription_id: …, resource_group: …}",
            at_key=True,
        )
        return
    where = (*at, "traffic_manager")
    if not _PROFILE.match(door.profile):
        yield loc.error(
            (*where, "profile") if tm.profile else at,
            f'"{door.profile}" cannot be a Traffic Manager profile: its name is its DNS label '
            "under trafficmanager.net (1-63 letters, digits and hyphens)",
            "set traffic_manager.profile to such a label, unique across Azure",
        )
    if tm.dns_zone is not None:
        zone = tm.dns_zone.rstrip(".").lower()
        name = door.name.rstrip(".").lower()
        if name == zone:
            yield loc.error(
                (*at, "name"),
                f"{door.name} is the apex of zone {tm.dns_zone}: Azure DNS points an apex at a "
                "Traffic Manager profile only with an A alias, which works for endpoints that "
                "are IP addresses alone",
                f"use a name below it (e.g. chat.{zone})",
            )
        elif not name.endswith(f".{zone}"):
            yield loc.error(
                (*at, "name"),
                f"{door.name} is not in the zone {tm.dns_zone}: the alias record goes in that zone",
                f"use a name ending in .{zone}, or the zone that holds {door.name}",
                related=[((*where, "dns_zone"), "the zone")],
            )
    elif tm.dns_zone_resource_group is not None:
        yield loc.error(
            (*where, "dns_zone_resource_group"),
            "dns_zone_resource_group without dns_zone",
            "set dns_zone, or remove dns_zone_resource_group",
            at_key=True,
        )


def subscriptions(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    """Traffic Manager doors sharing a cluster name one subscription: a serving root has one
    ``azurerm.front_door`` provider, and its endpoints go in that provider's subscription."""
    first: dict[str, tuple[int, str]] = {}
    for i, workload in enumerate(spec.workloads):
        door = workload.front_door
        if door is None or door.traffic_manager is None:
            continue
        mine = door.traffic_manager.subscription_id
        clash = None
        for cluster in workload.clusters:
            seen = first.setdefault(cluster, (i, mine))
            if seen[1] != mine and clash is None:
                clash = (cluster, seen[0])
        if clash is None:
            continue
        cluster, other = clash
        at: KeyPath = ("workloads", other, "front_door", "traffic_manager", "subscription_id")
        yield loc.error(
            ("workloads", i, "front_door", "traffic_manager", "subscription_id"),
            f'the Traffic Manager front doors on cluster "{cluster}" name two subscriptions: '
            "its serving root has one provider for them",
            f"put the profiles of workloads that share {cluster} in one subscription",
            related=[(at, f"workload {spec.workloads[other].name}'s")],
        )


def host_names(spec: Spec, loc: Locator) -> Iterator[Diagnostic]:
    """A Cloud DNS front door in front of a cluster whose load balancer has a host name.

    Cloud DNS health checks external endpoints by IP (``health_checked_targets.
    external_endpoints``, A records only), and a record set's targets are IPs: an EKS NLB is
    reached at a host name whose addresses AWS owns and may change. Static addresses for it
    (Elastic IPs, one per public subnet, given to the NLB by annotation) are not rendered.
    """
    clouds = {c.name: c.cloud for c in spec.clusters}
    for i, workload in enumerate(spec.workloads):
        door = workload.front_door
        if door is None or door.dns != "cloud_dns":
            continue
        folder = door_folder(workload.name)
        if folder in clouds:
            # envs/<env>/<cluster>/ and envs/<env>/door-<workload>/ share one folder.
            yield loc.error(
                ("workloads", i, "front_door"),
                f'the Cloud DNS front door\'s root of "{workload.name}" would be '
                f'envs/<env>/{folder}/, the folder of cluster "{folder}"',
                "rename that cluster (a name not starting with door-)",
                at_key=True,
            )
        for j, name in enumerate(workload.clusters):
            cloud = clouds.get(name)
            if cloud is None or target(cloud).address_is_ip:
                continue
            yield loc.error(
                ("workloads", i, "clusters", j),
                f'a Cloud DNS front door cannot route to "{name}": its {target(cloud).title} '
                "load balancer is reached at a host name, and Cloud DNS's weighted records "
                "and health checks take IP addresses",
                "use dns: route53 or dns: traffic_manager, which route to host names, or "
                "keep this workload's Cloud DNS front door to clusters on GKE and AKS",
            )
