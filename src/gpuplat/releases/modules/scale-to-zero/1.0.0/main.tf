# gpuplat module scale-to-zero 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  labels = { "app.kubernetes.io/name" = var.name, "app.kubernetes.io/managed-by" = "gpuplat", "gpuplat.dev/workload" = var.name }
  front  = "${var.name}-front"
  # The Host headers the interceptor routes to this workload: the front Service's names.
  hosts = [local.front, "${local.front}.${var.namespace}", "${local.front}.${var.namespace}.svc", "${local.front}.${var.namespace}.svc.cluster.local"]
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
        threshold     = tostring(var.prometheus.threshold)
      }
    }],
  )
}

# Clients call this Service. It is a name for the interceptor, which holds each request until
# a replica is ready (scaling from zero first) and then forwards it.
resource "kubernetes_service_v1" "front" {
  metadata {
    name      = local.front
    namespace = var.namespace
    labels    = local.labels
  }
  spec {
    type          = "ExternalName"
    external_name = split(":", var.interceptor)[0]
    port {
      name = "http"
      port = tonumber(split(":", var.interceptor)[1])
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
      labels    = local.labels
      # gpuplat writes the ScaledObject itself (below) so it can add the queue trigger.
      annotations = { "httpscaledobject.keda.sh/skip-scaledobject-creation" = "true" }
    }
    spec = {
      hosts           = local.hosts
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
    metadata   = { name = "${var.name}-scaler", namespace = var.namespace, labels = local.labels }
    spec = {
      scaleTargetRef  = { name = var.name }
      minReplicaCount = 0
      maxReplicaCount = var.max_replicas
      cooldownPeriod  = var.cooldown_seconds
      pollingInterval = 15
      triggers        = local.triggers
    }
  }

  depends_on = [kubernetes_manifest.http_route]
}
