# gpuplat module nic-cluster-policy 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "resource" {
  description = "The extended resource a pod requests to reach the InfiniBand HCAs."
  value       = "rdma/${var.resource_name}"
}
