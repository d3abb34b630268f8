# gpuplat module aks-cluster 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "name" {
  description = "Cluster name."
  value       = azurerm_kubernetes_cluster.this.name
}

output "id" {
  description = "Resource id of the cluster (GPU pools join it by this id)."
  value       = azurerm_kubernetes_cluster.this.id
  # A pool in a capacity reservation group is created only once the control plane may use it.
  depends_on = [azurerm_role_assignment.reservations]
}

output "control_plane_principal_id" {
  description = "Principal id of the control plane's user-assigned identity (null: system-assigned)."
  value       = local.user_assigned ? azurerm_user_assigned_identity.control_plane[0].principal_id : null
}

output "location" {
  description = "Azure region of the cluster."
  value       = azurerm_kubernetes_cluster.this.location
}

output "resource_group_name" {
  description = "Resource group of the cluster."
  value       = azurerm_kubernetes_cluster.this.resource_group_name
}

output "kubernetes_version" {
  description = "Kubernetes version of the control plane; GPU pools follow it."
  value       = azurerm_kubernetes_cluster.this.kubernetes_version
}

output "node_subnet_id" {
  description = "Subnet of the nodes (null: the virtual network AKS created); GPU pools join it."
  value       = var.network.subnet_id
}

output "host" {
  description = "URL of the Kubernetes API (https://...)."
  # The API address and the cluster's CA certificate are public; kube_config is sensitive only
  # because it also holds credentials, which nothing here reads.
  value = nonsensitive(azurerm_kubernetes_cluster.this.kube_config[0].host)
}

output "ca_certificate" {
  description = "Base64-encoded CA certificate of the control plane."
  value       = nonsensitive(azurerm_kubernetes_cluster.this.kube_config[0].cluster_ca_certificate)
}

output "oidc_issuer_url" {
  description = "OIDC issuer of the cluster's service account tokens, for workload identity federation."
  value       = azurerm_kubernetes_cluster.this.oidc_issuer_url
}
