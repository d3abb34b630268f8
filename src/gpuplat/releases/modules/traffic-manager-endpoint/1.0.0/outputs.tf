# gpuplat module traffic-manager-endpoint 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "weight" {
  description = "The placement's weight in gpuplat's terms: its endpoint's weight while enabled, 0 while disabled."
  value       = azurerm_traffic_manager_external_endpoint.placement.enabled ? azurerm_traffic_manager_external_endpoint.placement.weight : 0
}

output "profile_fqdn" {
  description = "The profile's name under trafficmanager.net, which the front door's name points at."
  value       = "${var.profile.name}.trafficmanager.net"
}
