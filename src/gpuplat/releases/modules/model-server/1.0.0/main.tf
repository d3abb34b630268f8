# gpuplat module model-server 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  labels     = { "app.kubernetes.io/name" = var.name, "app.kubernetes.io/managed-by" = "gpuplat", "gpuplat.dev/workload" = var.name }
  selector   = { "gpuplat.dev/workload" = var.name }
  gpu_limits = var.gpu.dra ? {} : { "nvidia.com/gpu" = tostring(var.gpu.count) }
  requests = merge(
    { cpu = var.resources.cpu, memory = var.resources.memory },
    local.gpu_limits,
    var.resources.ephemeral_storage == null ? {} : { "ephemeral-storage" = var.resources.ephemeral_storage },
  )
  # Memory is capped at its request so a leaking server is restarted instead of starving its
  # neighbours on a shared GPU node; CPU is not capped (throttling stalls token generation).
  limits = merge({ memory = var.resources.memory }, local.gpu_limits)
  annotations = var.weights.mode == "gcsfuse" ? {
    "gke-gcsfuse/volumes"                 = "true"
    "gke-gcsfuse/cpu-limit"               = "0"
    "gke-gcsfuse/memory-limit"            = "0"
    "gke-gcsfuse/ephemeral-storage-limit" = "0"
  } : {}
  shm_size = var.gpu.count > 1 ? "8Gi" : "1Gi"
}

resource "kubernetes_namespace_v1" "this" {
  metadata {
    name   = var.namespace
    labels = local.labels
  }
}

resource "kubernetes_service_account_v1" "this" {
  metadata {
    name        = var.name
    namespace   = kubernetes_namespace_v1.this.metadata[0].name
    labels      = local.labels
    annotations = var.service_account_annotations
  }
  automount_service_account_token = false
}

resource "kubernetes_priority_class_v1" "this" {
  metadata {
    name   = var.priority.name
    labels = local.labels
  }
  value             = var.priority.value
  preemption_policy = "PreemptLowerPriority"
  description       = "Priority of model server ${var.name} (managed by gpuplat)."
}

resource "kubernetes_deployment_v1" "this" {
  count = var.gpu.dra ? 0 : 1

  metadata {
    name      = var.name
    namespace = kubernetes_namespace_v1.this.metadata[0].name
    labels    = local.labels
  }

  spec {
    replicas = var.replicas.min
    # Loading weights takes minutes; a rollout is only stuck after the whole startup window.
    progress_deadline_seconds = var.startup.period_seconds * var.startup.failure_threshold + 600
    revision_history_limit    = 5

    selector {
      match_labels = local.selector
    }

    strategy {
      type = "RollingUpdate"
      rolling_update {
        max_surge       = tostring(var.rollout.max_surge)
        max_unavailable = tostring(var.rollout.max_unavailable)
      }
    }

    template {
      metadata {
        labels      = local.labels
        annotations = local.annotations
      }

      spec {
        service_account_name             = kubernetes_service_account_v1.this.metadata[0].name
        automount_service_account_token  = var.weights.mode == "gcsfuse"
        priority_class_name              = kubernetes_priority_class_v1.this.metadata[0].name
        termination_grace_period_seconds = var.shutdown.grace_seconds

        security_context {
          seccomp_profile {
            type = "RuntimeDefault"
          }
        }

        affinity {
          node_affinity {
            required_during_scheduling_ignored_during_execution {
              node_selector_term {
                match_expressions {
                  key      = "gpuplat.dev/pool"
                  operator = "In"
                  values   = var.placement.pools
                }
              }
            }
            # Earlier pools in the list win when several have room (e.g. on-demand before spot).
            dynamic "preferred_during_scheduling_ignored_during_execution" {
              for_each = length(var.placement.pools) > 1 ? var.placement.pools : []
              content {
                weight = max(1, 100 - 10 * preferred_during_scheduling_ignored_during_execution.key)
                preference {
                  match_expressions {
                    key      = "gpuplat.dev/pool"
                    operator = "In"
                    values   = [preferred_during_scheduling_ignored_during_execution.value]
                  }
                }
              }
            }
          }
        }

        dynamic "toleration" {
          for_each = var.placement.tolerations
          content {
            key      = toleration.value.key
            operator = toleration.value.operator
            value    = toleration.value.value
            effect   = toleration.value.effect
          }
        }

        dynamic "init_container" {
          for_each = var.weights.mode == "copy" ? [var.weights] : []
          content {
            name    = "fetch-weights"
            image   = init_container.value.init_image
            command = init_container.value.init_command
            resources {
              requests = { cpu = "1", memory = "2Gi" }
              limits   = { memory = "4Gi" }
            }
            security_context {
              allow_privilege_escalation = false
              capabilities {
                drop = ["ALL"]
              }
            }
            volume_mount {
              name       = "weights"
              mount_path = init_container.value.mount_path
            }
          }
        }

        container {
          name    = "server"
          image   = var.container.image
          command = var.container.command
          args    = var.container.args

          port {
            name           = "http"
            container_port = var.container.port
          }

          dynamic "env" {
            for_each = var.container.env
            content {
              name  = env.key
              value = env.value
            }
          }

          resources {
            requests = local.requests
            limits   = local.limits
          }

          # Covers image pull and weight load; until it passes, liveness is not checked, so a
          # server that is still loading is never restarted.
          startup_probe {
            http_get {
              path = var.container.health_path
              port = "http"
            }
            period_seconds    = var.startup.period_seconds
            failure_threshold = var.startup.failure_threshold
            timeout_seconds   = 5
          }

          # Traffic only reaches a replica that answers its health check.
          readiness_probe {
            http_get {
              path = var.container.health_path
              port = "http"
            }
            period_seconds    = var.health.readiness_period_seconds
            failure_threshold = 3
            timeout_seconds   = 5
          }

          liveness_probe {
            http_get {
              path = var.container.health_path
              port = "http"
            }
            period_seconds    = var.health.liveness_period_seconds
            failure_threshold = var.health.liveness_failures
            timeout_seconds   = 10
          }

          lifecycle {
            pre_stop {
              # Keep serving while the endpoint is removed from Services and load balancers.
              exec {
                command = ["sleep", tostring(var.shutdown.pre_stop_seconds)]
              }
            }
          }

          security_context {
            allow_privilege_escalation = false
            # Model servers write compile and kernel caches under their home directory.
            read_only_root_filesystem = false
            capabilities {
              drop = ["ALL"]
            }
          }

          dynamic "volume_mount" {
            for_each = var.weights.mode == "image" ? [] : [var.weights.mount_path]
            content {
              name       = "weights"
              mount_path = volume_mount.value
              read_only  = true
            }
          }

          volume_mount {
            name       = "dshm"
            mount_path = "/dev/shm"
          }
        }

        dynamic "volume" {
          for_each = var.weights.mode == "copy" ? [var.weights] : []
          content {
            name = "weights"
            empty_dir {
              size_limit = volume.value.size_limit
            }
          }
        }

        dynamic "volume" {
          for_each = var.weights.mode == "gcsfuse" ? [var.weights] : []
          content {
            name = "weights"
            csi {
              driver    = "gcsfuse.csi.storage.gke.io"
              read_only = true
              volume_attributes = {
                bucketName   = volume.value.bucket
                mountOptions = volume.value.mount_options
              }
            }
          }
        }

        # Shared memory for NCCL and multi-process servers (the default 64Mi is too small).
        volume {
          name = "dshm"
          empty_dir {
            medium     = "Memory"
            size_limit = local.shm_size
          }
        }
      }
    }
  }

  lifecycle {
    # The autoscaler owns the replica count once the Deployment exists.
    ignore_changes = [spec[0].replicas]
  }
}

resource "kubernetes_service_v1" "this" {
  metadata {
    name      = var.name
    namespace = kubernetes_namespace_v1.this.metadata[0].name
    labels    = local.labels
  }
  spec {
    type     = "ClusterIP"
    selector = local.selector
    port {
      name        = "http"
      port        = var.container.port
      target_port = "http"
    }
  }
}

resource "kubernetes_pod_disruption_budget_v1" "this" {
  metadata {
    name      = var.name
    namespace = kubernetes_namespace_v1.this.metadata[0].name
    labels    = local.labels
  }
  spec {
    # One replica at a time may be evicted, so node drains and upgrades make progress
    # without taking the whole service down.
    max_unavailable = "1"
    selector {
      match_labels = local.selector
    }
  }
}

resource "kubernetes_horizontal_pod_autoscaler_v2" "this" {
  count = var.hpa == null ? 0 : 1

  metadata {
    name      = var.name
    namespace = kubernetes_namespace_v1.this.metadata[0].name
    labels    = local.labels
  }
  spec {
    min_replicas = max(var.replicas.min, 1)
    max_replicas = var.replicas.max
    scale_target_ref {
      api_version = "apps/v1"
      kind        = "Deployment"
      name        = var.name
    }
    metric {
      type = "Pods"
      pods {
        metric {
          name = var.hpa.metric
        }
        target {
          type          = "AverageValue"
          average_value = tostring(var.hpa.target)
        }
      }
    }
    behavior {
      scale_down {
        # A GPU replica takes minutes to come back: scale down slowly.
        stabilization_window_seconds = 600
        select_policy                = "Min"
        policy {
          type           = "Pods"
          value          = 1
          period_seconds = 300
        }
      }
    }
  }
}
