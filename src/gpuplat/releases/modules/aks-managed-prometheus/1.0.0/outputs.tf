# gpuplat module aks-managed-prometheus 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "query_address" {
  description = "The workspace's Prometheus query endpoint, where KEDA's prometheus trigger queries (it appends /api/v1/query)."
  value       = azurerm_monitor_workspace.this.query_endpoint
}

output "keda_client_id" {
  description = "Client id of the identity KEDA's operator queries with (the TriggerAuthentication's identityId)."
  value       = azurerm_user_assigned_identity.keda.client_id
}

output "workspace_id" {
  description = "Resource id of the Azure Monitor workspace."
  value       = azurerm_monitor_workspace.this.id
}
