# gpuplat module scale-to-zero 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "endpoint" {
  description = "Where clients send requests (host:port): the front Service, backed by the interceptor."
  value       = "${local.front}.${var.namespace}.svc.cluster.local:${split(":", var.interceptor)[1]}"
}
