# gpuplat module gpu-platform 1.8.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "releases" {
  description = "Helm releases installed, by component: namespace and chart version."
  value = {
    for name, r in {
      device_plugin      = helm_release.device_plugin
      gpu_operator       = helm_release.gpu_operator
      dra_driver         = helm_release.dra_driver
      dcgm_exporter      = helm_release.dcgm_exporter
      keda               = helm_release.keda
      keda_http_add_on   = helm_release.keda_http_add_on
      kueue              = helm_release.kueue
      leader_worker_set  = helm_release.leader_worker_set
      cluster_autoscaler = helm_release.cluster_autoscaler
    } : name => { namespace = r[0].namespace, version = r[0].version } if length(r) > 0
  }
}

output "http_interceptor" {
  description = "Service that buffers requests for scale-to-zero workloads (host:port), or null."
  value       = var.keda.enabled && var.keda.http_add_on ? "keda-add-ons-http-interceptor-proxy.keda.svc.cluster.local:8080" : null
}

output "http_scaler" {
  description = "The HTTP add-on's external push scaler (host:port) for ScaledObject triggers, or null."
  value       = var.keda.enabled && var.keda.http_add_on ? "keda-add-ons-http-external-scaler.keda.svc.cluster.local:9090" : null
}

output "compute_classes" {
  description = "Names of the ComputeClasses created for the cluster's capacity ladders."
  value       = sort(keys(kubernetes_manifest.compute_class))
}
