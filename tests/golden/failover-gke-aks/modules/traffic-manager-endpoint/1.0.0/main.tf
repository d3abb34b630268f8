# gpuplat module traffic-manager-endpoint 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # The profile's id is known before it exists, so a placement that does not create it (in
  # another cluster's root, with its own state) refers to it without reading it.
  profile_id = "/subscriptions/${var.profile.subscription_id}/resourceGroups/${var.profile.resource_group_name}/providers/Microsoft.Network/trafficManagerProfiles/${var.profile.name}"
  tcp        = var.health.type == "TCP"
}

# Traffic Manager's monitor probes every endpoint of the profile the same way, from Azure's
# probing agents on the internet: the readiness path over HTTP, or (TCP) only a connection,
# for a load balancer whose requests have an effect (the KEDA interceptor of a scale-to-zero
# workload, which would start a replica for every probe).
resource "azurerm_traffic_manager_profile" "this" {
  count = var.profile.create ? 1 : 0

  name                   = var.profile.name
  resource_group_name    = var.profile.resource_group_name
  traffic_routing_method = "Weighted"

  dns_config {
    relative_name = var.profile.name
    ttl           = var.ttl
  }

  monitor_config {
    protocol                     = var.health.type
    port                         = var.health.port
    path                         = local.tcp ? null : var.health.path
    interval_in_seconds          = var.health.interval
    timeout_in_seconds           = var.health.interval == 10 ? 9 : 10
    tolerated_number_of_failures = var.health.failure_threshold - 1
  }
}

# Traffic Manager has no weight 0: a standby's endpoint is disabled (answered never), a
# serving one enabled at its weight. Its weight stays valid (1) while it is disabled.
resource "azurerm_traffic_manager_external_endpoint" "placement" {
  name       = var.endpoint
  profile_id = local.profile_id
  target     = var.address
  weight     = max(var.weight, 1)
  enabled    = var.weight > 0

  depends_on = [azurerm_traffic_manager_profile.this]
}

# The front door's name as an alias of the profile: Azure DNS follows the profile's name.
resource "azurerm_dns_cname_record" "door" {
  count = var.profile.create && var.dns_zone != null ? 1 : 0

  name                = var.dns_zone.record
  zone_name           = var.dns_zone.name
  resource_group_name = var.dns_zone.resource_group_name
  ttl                 = var.ttl
  target_resource_id  = azurerm_traffic_manager_profile.this[0].id
}
