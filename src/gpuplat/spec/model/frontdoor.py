"""A workload's front door: health-checked weighted DNS in front of its placements."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class TrafficManager(SpecModel):
    """Where an Azure Traffic Manager front door lives (you own the subscription and group)."""

    subscription_id: str = Field(description="The Azure subscription of the profile.")
    resource_group: str = Field(
        description="An existing resource group the profile (and its endpoints) go in."
    )
    profile: str | None = Field(
        None,
        description="The profile's name, also its DNS label under trafficmanager.net (unique "
        "across Azure: 1-63 letters, digits and hyphens). Default: the front door's name with "
        "its dots as hyphens.",
    )
    dns_zone: str | None = Field(
        None,
        description="An Azure DNS zone you own (e.g. example.com) in which gpuplat writes the "
        "front door's name as an alias of the profile. Default: none (point the name at "
        "<profile>.trafficmanager.net yourself).",
    )
    dns_zone_resource_group: str | None = Field(
        None, description="The zone's resource group. Default: resource_group."
    )


class CloudDns(SpecModel):
    """Where a Cloud DNS front door lives (you own the project and its public managed zone)."""

    project: str = Field(description="The Google Cloud project of the managed zone.")
    managed_zone: str = Field(
        description="The name of an existing public managed zone (not its DNS name) that "
        "holds the front door's name."
    )
    health_regions: list[str] = Field(
        default_factory=lambda: ["us-east4", "europe-west1", "asia-southeast1"],
        min_length=3,
        max_length=3,
        description="The three Google Cloud regions the health check probes from (Cloud DNS "
        "checks of external endpoints take exactly three).",
    )


class FrontDoor(SpecModel):
    """Health-checked weighted DNS records in front of the workload's placements."""

    dns: Literal["route53", "traffic_manager", "cloud_dns"] = Field(
        description="route53: one weighted record per placement in a Route 53 hosted zone "
        "you own, each with a health check on the server's readiness path. traffic_manager: "
        "an Azure Traffic Manager profile (Weighted) with one external endpoint per "
        "placement, disabled while the placement is a standby, its monitor probing the "
        "readiness path. cloud_dns: one Cloud DNS record set with a weighted round robin "
        "policy holding every placement, rendered in a front-door root of its own, each "
        "placement's IP health checked."
    )
    zone_id: str | None = Field(
        None, description="route53: the hosted zone the records go in (you own it)."
    )
    name: str = Field(description="The name clients call, in that zone (e.g. chat.example.com).")
    ttl: int = Field(60, ge=0, description="TTL of the records, seconds.")
    endpoint: str | None = Field(
        None,
        description="route53: Route 53 API endpoint (an emulator, or a VPC endpoint). "
        "Default: AWS's.",
    )
    traffic_manager: TrafficManager | None = Field(
        None, description="traffic_manager: the profile's subscription, group and DNS zone."
    )
    cloud_dns: CloudDns | None = Field(
        None, description="cloud_dns: the managed zone's project and name."
    )

    @property
    def profile(self) -> str:
        """The Traffic Manager profile's name (its DNS label under trafficmanager.net)."""
        given = self.traffic_manager.profile if self.traffic_manager is not None else None
        return given or self.name.replace(".", "-")
