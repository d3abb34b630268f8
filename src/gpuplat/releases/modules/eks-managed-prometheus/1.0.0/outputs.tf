# gpuplat module eks-managed-prometheus 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "query_address" {
  description = "Where KEDA's prometheus trigger queries (it appends /api/v1/query): the workspace's Prometheus endpoint without its trailing slash."
  value       = trimsuffix(aws_prometheus_workspace.this.prometheus_endpoint, "/")
}

output "workspace_arn" {
  description = "ARN of the Amazon Managed Prometheus workspace."
  value       = aws_prometheus_workspace.this.arn
}

output "keda_role_arn" {
  description = "IAM role KEDA's operator queries the workspace with (EKS Pod Identity)."
  value       = aws_iam_role.keda.arn
}

output "scrape_configuration" {
  description = "The managed collector's Prometheus configuration (YAML): one job per serving workload."
  value       = local.scrape_configuration
}
