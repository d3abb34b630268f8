# gpuplat module aks-workload-identity 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

resource "azurerm_user_assigned_identity" "this" {
  name                = var.name
  resource_group_name = var.resource_group_name
  location            = var.location
  tags                = var.tags
}

# Tokens the cluster issues to this one service account are exchanged for the identity's;
# no secret exists anywhere.
resource "azurerm_federated_identity_credential" "this" {
  name                      = var.name
  user_assigned_identity_id = azurerm_user_assigned_identity.this.id
  issuer                    = var.oidc_issuer_url
  subject                   = var.subject
  audience                  = ["api://AzureADTokenExchange"]
}

resource "azurerm_role_assignment" "this" {
  scope                = var.role.scope
  role_definition_name = var.role.name
  principal_id         = azurerm_user_assigned_identity.this.principal_id
  principal_type       = "ServicePrincipal"
  description          = "Workload identity ${var.name} (managed by gpuplat): ${var.role.name} on its weights."
}
