# gpuplat module gke-gpu-node-pool 1.5.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "name" {
  description = "Node pool name."
  value       = google_container_node_pool.this.name
}

output "id" {
  description = "Node pool id."
  value       = google_container_node_pool.this.id
}

output "labels" {
  description = "Kubernetes labels gpuplat set on the nodes (GKE adds its own accelerator labels)."
  value       = var.labels
}

output "taints" {
  description = "Kubernetes taints of the nodes, including nvidia.com/gpu=present:NoSchedule."
  value       = local.taints
}

output "accelerator" {
  description = "GKE accelerator type of the nodes (the cloud.google.com/gke-accelerator label)."
  value       = var.accelerator.type
}

output "gpus_per_node" {
  description = "Physical GPUs per node."
  value       = var.accelerator.count
}
