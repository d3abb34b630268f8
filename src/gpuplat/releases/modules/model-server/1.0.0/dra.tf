# gpuplat module model-server 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Dynamic Resource Allocation (resource.k8s.io/v1, Kubernetes >= 1.34): the pod claims its
# GPUs through a ResourceClaimTemplate. The typed kubernetes_deployment_v1 resource cannot
# express pod resourceClaims, so in DRA mode the Deployment is a manifest built from the same
# inputs. Both kinds are built into Kubernetes, so planning needs no CRD, only the cluster.

locals {
  dra_probe = {
    httpGet          = { path = var.container.health_path, port = "http" }
    timeoutSeconds   = 5
    periodSeconds    = var.startup.period_seconds
    failureThreshold = var.startup.failure_threshold
  }
  dra_container = {
    name    = "server"
    image   = var.container.image
    command = var.container.command
    args    = var.container.args
    ports   = [{ name = "http", containerPort = var.container.port }]
    env     = [for k, v in var.container.env : { name = k, value = v }]
    resources = {
      requests = local.requests
      limits   = local.limits
      claims   = [{ name = "gpu" }]
    }
    startupProbe   = local.dra_probe
    readinessProbe = merge(local.dra_probe, { periodSeconds = var.health.readiness_period_seconds, failureThreshold = 3 })
    livenessProbe  = merge(local.dra_probe, { periodSeconds = var.health.liveness_period_seconds, failureThreshold = var.health.liveness_failures, timeoutSeconds = 10 })
    lifecycle      = { preStop = { exec = { command = ["sleep", tostring(var.shutdown.pre_stop_seconds)] } } }
    securityContext = {
      allowPrivilegeEscalation = false
      readOnlyRootFilesystem   = false
      capabilities             = { drop = ["ALL"] }
    }
    volumeMounts = concat(
      var.weights.mode == "image" ? [] : [{ name = "weights", mountPath = var.weights.mount_path, readOnly = true }],
      [{ name = "dshm", mountPath = "/dev/shm" }],
    )
  }
  dra_init = [for w in(var.weights.mode == "copy" ? [var.weights] : []) : {
    name            = "fetch-weights"
    image           = w.init_image
    command         = w.init_command
    resources       = { requests = { cpu = "1", memory = "2Gi" }, limits = { memory = "4Gi" } }
    securityContext = { allowPrivilegeEscalation = false, capabilities = { drop = ["ALL"] } }
    volumeMounts    = [{ name = "weights", mountPath = w.mount_path }]
  }]
  dra_volumes = concat(
    var.weights.mode == "copy" ? [{ name = "weights", emptyDir = { sizeLimit = var.weights.size_limit } }] : [],
    var.weights.mode == "gcsfuse" ? [{
      name = "weights"
      csi = {
        driver           = "gcsfuse.csi.storage.gke.io"
        readOnly         = true
        volumeAttributes = { bucketName = var.weights.bucket, mountOptions = var.weights.mount_options }
      }
    }] : [],
    [{ name = "dshm", emptyDir = { medium = "Memory", sizeLimit = local.shm_size } }],
  )
}

resource "kubernetes_manifest" "gpu_claim_template" {
  count = var.gpu.dra ? 1 : 0

  manifest = {
    apiVersion = "resource.k8s.io/v1"
    kind       = "ResourceClaimTemplate"
    metadata   = { name = "${var.name}-gpu", namespace = kubernetes_namespace_v1.this.metadata[0].name, labels = local.labels }
    spec = {
      spec = {
        devices = {
          requests = [{
            name    = "gpu"
            exactly = { deviceClassName = var.gpu.device_class, count = var.gpu.count }
          }]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "deployment" {
  count = var.gpu.dra ? 1 : 0

  manifest = {
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = var.name, namespace = kubernetes_namespace_v1.this.metadata[0].name, labels = local.labels }
    spec = {
      replicas                = var.replicas.min
      progressDeadlineSeconds = var.startup.period_seconds * var.startup.failure_threshold + 600
      revisionHistoryLimit    = 5
      selector                = { matchLabels = local.selector }
      strategy = {
        type          = "RollingUpdate"
        rollingUpdate = { maxSurge = var.rollout.max_surge, maxUnavailable = var.rollout.max_unavailable }
      }
      template = {
        metadata = { labels = local.labels, annotations = local.annotations }
        spec = {
          serviceAccountName            = kubernetes_service_account_v1.this.metadata[0].name
          priorityClassName             = kubernetes_priority_class_v1.this.metadata[0].name
          terminationGracePeriodSeconds = var.shutdown.grace_seconds
          securityContext               = { seccompProfile = { type = "RuntimeDefault" } }
          affinity = {
            nodeAffinity = {
              requiredDuringSchedulingIgnoredDuringExecution = {
                nodeSelectorTerms = [{ matchExpressions = [{ key = "gpuplat.dev/pool", operator = "In", values = var.placement.pools }] }]
              }
            }
          }
          tolerations    = [for t in var.placement.tolerations : { for k, v in t : k => v if v != null }]
          resourceClaims = [{ name = "gpu", resourceClaimTemplateName = "${var.name}-gpu" }]
          initContainers = local.dra_init
          containers     = [local.dra_container]
          volumes        = local.dra_volumes
        }
      }
    }
  }

  field_manager {
    force_conflicts = true
  }

  computed_fields = ["spec.replicas"]

  depends_on = [kubernetes_manifest.gpu_claim_template]
}
