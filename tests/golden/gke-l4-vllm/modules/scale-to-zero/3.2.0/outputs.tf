# gpuplat module scale-to-zero 3.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "endpoint" {
  description = "Where clients send requests (host:port): the front Service, backed by the interceptor (scale-to-zero), else the workload's own Service."
  value       = var.http == null ? "${var.name}.${var.namespace}.svc.cluster.local:${var.port}" : "${kubernetes_service_v1.front[0].metadata[0].name}.${var.namespace}.svc.cluster.local:${var.http.front.port}"
}
