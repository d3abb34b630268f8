# gpuplat module aks-workload-identity 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "client_id" {
  description = "Client id of the identity: the azure.workload.identity/client-id annotation of the workload's service account."
  value       = azurerm_user_assigned_identity.this.client_id
}

output "principal_id" {
  description = "Object id of the identity's service principal (role assignments)."
  value       = azurerm_user_assigned_identity.this.principal_id
}

output "id" {
  description = "Resource id of the identity."
  value       = azurerm_user_assigned_identity.this.id
}
