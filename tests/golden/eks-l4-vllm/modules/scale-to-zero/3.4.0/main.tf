# gpuplat module scale-to-zero 3.4.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  triggers = concat(
    var.http == null ? [] : [{
      type     = "external-push"
      metadata = { scalerAddress = var.http.scaler, httpScaledObject = var.name }
    }],
    var.prometheus == null ? [] : [merge(
      {
        type = "prometheus"
        # With what the signer needs besides the query (Amazon Managed Prometheus: awsRegion).
        metadata = merge(
          {
            serverAddress = var.prometheus.address
            query         = var.prometheus.query
            threshold     = var.prometheus.threshold
          },
          var.prometheus.metadata,
        )
      },
      var.prometheus.auth_provider == null ? {} : {
        authenticationRef = { name = "${var.name}-prometheus" }
      },
    )],
  )
}

# Clients call this Service. It is a name for the interceptor, which holds each request until
# a replica is ready (scaling from zero first) and then forwards it.
resource "kubernetes_service_v1" "front" {
  count = var.http == null ? 0 : 1

  metadata {
    name      = var.http.front.name
    namespace = var.namespace
    labels    = var.labels
  }
  spec {
    type          = "ExternalName"
    external_name = var.http.front.external_name
    port {
      name = "http"
      port = var.http.front.port
    }
  }
}

# An address outside the cluster for a workload that may be at zero replicas: a load balancer
# in front of the interceptor itself (in its namespace, selecting its pods), not in front of
# the model server, whose Service has no endpoints at zero and whose requests the interceptor
# must see to count them. The interceptor routes by Host header: the front door's names are
# in the HTTPScaledObject's hosts. The apply waits until the cloud has given it an address.
resource "kubernetes_service_v1" "door" {
  count = try(var.http.door, null) == null ? 0 : 1

  metadata {
    name        = "${var.name}-door"
    namespace   = var.http.door.namespace
    labels      = var.labels
    annotations = var.http.door.annotations
  }
  spec {
    type     = "LoadBalancer"
    selector = var.http.door.selector
    port {
      name        = "http"
      port        = var.http.front.port
      target_port = var.http.door.target_port
    }
  }
}

resource "kubernetes_manifest" "http_route" {
  count = var.http == null ? 0 : 1

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
      hosts           = var.http.front.hosts
      scaleTargetRef  = { name = var.name, kind = "Deployment", apiVersion = "apps/v1", service = var.name, port = var.port }
      replicas        = { min = 0, max = var.replicas.max }
      scaledownPeriod = var.cooldown_seconds
      scalingMetric   = { concurrency = { targetValue = var.http.target_pending_requests } }
      # A request at zero replicas waits for a GPU node, the pull and the load.
      timeouts = { conditionWait = "${var.http.wait_seconds}s" }
    }
  }
}

# The identity KEDA's operator signs the Prometheus query with (the cloud's managed Prometheus).
resource "kubernetes_manifest" "prometheus_auth" {
  count = try(var.prometheus.auth_provider, null) == null ? 0 : 1

  manifest = {
    apiVersion = "keda.sh/v1alpha1"
    kind       = "TriggerAuthentication"
    metadata   = { name = "${var.name}-prometheus", namespace = var.namespace, labels = var.labels }
    spec = { podIdentity = merge(
      { provider = var.prometheus.auth_provider },
      var.prometheus.identity_owner == null ? {} : { identityOwner = var.prometheus.identity_owner },
      var.prometheus.identity_id == null ? {} : { identityId = var.prometheus.identity_id },
    ) }
  }
}

# The collector scrapes exactly the serving pods (Google Managed Prometheus: a PodMonitoring
# selecting the Deployment's pods, on the server's metrics port and path).
resource "kubernetes_manifest" "pod_monitoring" {
  count = var.scrape == null ? 0 : 1

  manifest = {
    apiVersion = "monitoring.googleapis.com/v1"
    kind       = "PodMonitoring"
    metadata   = { name = var.name, namespace = var.namespace, labels = var.labels }
    spec = {
      selector  = { matchLabels = var.scrape.selector }
      endpoints = [{ port = var.scrape.port, path = var.scrape.path, interval = var.scrape.interval }]
    }
  }
}

# The same for a PodMonitor: the in-cluster Prometheus Operator's (monitoring.coreos.com) or
# Azure Monitor's copy of it (azmonitoring.coreos.com), which the AKS ama-metrics add-on reads.
resource "kubernetes_manifest" "pod_monitor" {
  count = var.pod_monitor == null ? 0 : 1

  manifest = {
    apiVersion = var.pod_monitor.api_version
    kind       = "PodMonitor"
    metadata   = { name = var.name, namespace = var.namespace, labels = var.labels }
    spec = {
      selector            = { matchLabels = var.pod_monitor.selector }
      podMetricsEndpoints = [{ port = var.pod_monitor.port, path = var.pod_monitor.path, interval = var.pod_monitor.interval }]
    }
  }
}

resource "kubernetes_manifest" "scaled_object" {
  manifest = {
    apiVersion = "keda.sh/v1alpha1"
    kind       = "ScaledObject"
    metadata   = { name = "${var.name}-scaler", namespace = var.namespace, labels = var.labels }
    spec = {
      scaleTargetRef  = { name = var.name, apiVersion = var.target.api_version, kind = var.target.kind }
      minReplicaCount = var.replicas.min
      maxReplicaCount = var.replicas.max
      cooldownPeriod  = var.cooldown_seconds
      pollingInterval = var.polling_interval_seconds
      advanced = {
        horizontalPodAutoscalerConfig = {
          behavior = {
            scaleUp = {
              stabilizationWindowSeconds = var.behavior.up_window_seconds
              policies                   = [var.behavior.up]
            }
            scaleDown = {
              stabilizationWindowSeconds = var.behavior.down_window_seconds
              policies                   = [var.behavior.down]
            }
          }
        }
      }
      triggers = local.triggers
    }
  }

  depends_on = [kubernetes_manifest.http_route, kubernetes_manifest.prometheus_auth]
}
