# gpuplat module scale-to-zero 2.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "endpoint" {
  description = "Where clients send requests (host:port): the front Service, backed by the interceptor."
  value       = "${kubernetes_service_v1.front.metadata[0].name}.${var.namespace}.svc.cluster.local:${var.front.port}"
}
