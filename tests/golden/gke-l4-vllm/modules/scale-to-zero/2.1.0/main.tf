# gpuplat module scale-to-zero 2.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  triggers = concat(
    [{
      type     = "external-push"
      metadata = { scalerAddress = var.http_scaler, httpScaledObject = var.name }
    }],
    var.prometheus == null ? [] : [{
      type = "prometheus"
      metadata = {
        serverAddress = var.prometheus.address
        query         = var.prometheus.query
        threshold     = var.prometheus.threshold
      }
    }],
  )
}

# Clients call this Service. It is a name for the interceptor, which holds each request until
# a replica is ready (scaling from zero first) and then forwards it.
resource "kubernetes_service_v1" "front" {
  metadata {
    name      = var.front.name
    namespace = var.namespace
    labels    = var.labels
  }
  spec {
    type          = "ExternalName"
    external_name = var.front.external_name
    port {
      name = "http"
      port = var.front.port
    }
  }
}

resource "kubernetes_manifest" "http_route" {
  manifest = {
    apiVersion = "http.keda.sh/v1alpha1"
    kind       = "HTTPScaledObject"
    metadata = {
      name      = var.name
      namespace = var.namespace
      labels    = var.labels
      # The module writes the ScaledObject itself (below) so it can add the queue trigger.
      annotations = { "httpscaledobject.keda.sh/skip-scaledobject-creation" = "true" }
    }
    spec = {
      hosts           = var.front.hosts
      scaleTargetRef  = { name = var.name, kind = "Deployment", apiVersion = "apps/v1", service = var.name, port = var.port }
      replicas        = { min = 0, max = var.max_replicas }
      scaledownPeriod = var.cooldown_seconds
      scalingMetric   = { concurrency = { targetValue = var.target_pending_requests } }
    }
  }
}

resource "kubernetes_manifest" "scaled_object" {
  manifest = {
    apiVersion = "keda.sh/v1alpha1"
    kind       = "ScaledObject"
    metadata   = { name = "${var.name}-scaler", namespace = var.namespace, labels = var.labels }
    spec = {
      scaleTargetRef  = { name = var.name }
      minReplicaCount = var.min_replicas
      maxReplicaCount = var.max_replicas
      cooldownPeriod  = var.cooldown_seconds
      pollingInterval = var.polling_interval_seconds
      triggers        = local.triggers
    }
  }

  depends_on = [kubernetes_manifest.http_route]
}
