# gpuplat module gke-metrics-reader 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "member" {
  description = "The Workload Identity principal that may query Managed Prometheus."
  value       = local.member
}
