# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "namespace" {
  description = "Namespace of the workload."
  value       = kubernetes_namespace_v1.this.metadata[0].name
}

output "service" {
  description = "In-cluster address of the server (host:port)."
  value       = "${kubernetes_service_v1.this.metadata[0].name}.${kubernetes_namespace_v1.this.metadata[0].name}.svc.cluster.local:${var.container.port}"
}

output "deployment" {
  description = "Name of the Deployment (the scale target of autoscalers)."
  value       = var.name
}

output "address" {
  description = "Address of the load balancer in front of the server (host name or IP, as the cloud gives it), reachable from outside the cluster; null without one."
  value       = var.load_balancer == null ? null : try(coalesce(kubernetes_service_v1.this.status[0].load_balancer[0].ingress[0].hostname, kubernetes_service_v1.this.status[0].load_balancer[0].ingress[0].ip), null)
}
