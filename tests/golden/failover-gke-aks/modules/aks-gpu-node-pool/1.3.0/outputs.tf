# gpuplat module aks-gpu-node-pool 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "name" {
  description = "Node pool name."
  value       = azurerm_kubernetes_cluster_node_pool.this.name
}

output "id" {
  description = "Resource id of the node pool."
  value       = azurerm_kubernetes_cluster_node_pool.this.id
}

output "vm_size" {
  description = "Azure VM size of the nodes."
  value       = var.vm_size
}

output "gpus_per_node" {
  description = "Physical GPUs per node."
  value       = var.gpus_per_node
}

output "labels" {
  description = "Kubernetes labels gpuplat set on the nodes (and AKS's spot label on Spot pools)."
  value       = local.labels
}

output "taints" {
  description = "Kubernetes taints of the nodes, including nvidia.com/gpu=present:NoSchedule (and the spot taint on Spot pools)."
  value       = local.taints
}
