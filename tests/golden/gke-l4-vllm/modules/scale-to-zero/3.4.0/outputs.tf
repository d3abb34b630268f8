# gpuplat module scale-to-zero 3.4.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "endpoint" {
  description = "Where clients send requests (host:port): the front Service, backed by the interceptor (scale-to-zero), else the workload's own Service."
  value       = var.http == null ? "${var.name}.${var.namespace}.svc.cluster.local:${var.port}" : "${kubernetes_service_v1.front[0].metadata[0].name}.${var.namespace}.svc.cluster.local:${var.http.front.port}"
}

output "address" {
  description = "Address of the load balancer in front of the interceptor (host name or IP, as the cloud gives it), reachable from outside the cluster; null without http.door."
  value       = try(var.http.door, null) == null ? null : try(coalesce(kubernetes_service_v1.door[0].status[0].load_balancer[0].ingress[0].hostname, kubernetes_service_v1.door[0].status[0].load_balancer[0].ingress[0].ip), null)
}
