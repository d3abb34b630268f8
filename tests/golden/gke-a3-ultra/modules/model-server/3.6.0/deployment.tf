# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# The Deployment, defined once, in Kubernetes' own shape. With the device plugin, main.tf writes
# it through the typed kubernetes_deployment_v1 (kept so that an existing Deployment is updated
# in place, never replaced, and so that scanners read it); with Dynamic Resource Allocation,
# whose pod resourceClaims the typed resource cannot express, dra.tf applies local.deployment
# itself. The typed resource takes every value from the inputs and every fixed choice from the
# locals below, so the two modes cannot drift apart.

locals {
  port_name    = "http"
  metrics_name = "metrics"
  # Model servers (vLLM, TGI, Triton, SGLang) write compile and kernel caches under their home
  # directory, so the root filesystem stays writable; capabilities and escalation are not.
  server_security = {
    allowPrivilegeEscalation = false
    readOnlyRootFilesystem   = false
    capabilities             = { drop = ["ALL"] }
  }
  init_security = { allowPrivilegeEscalation = false, capabilities = { drop = ["ALL"] } }
  pod_security  = { seccompProfile = { type = "RuntimeDefault" } }
  init_name     = "fetch-weights"
  server_name   = "server"
  weights_name  = "weights"
  shm_name      = "dshm"
  shm_path      = "/dev/shm"
  fuse_driver   = "gcsfuse.csi.storage.gke.io"
  gpu_claim     = "gpu"

  # A Cloud Storage FUSE file cache in a volume of the pod's own (in memory) needs an fsGroup for
  # the sidecar, which runs as 65534, to write there (gcs-fuse-csi-driver troubleshooting, custom
  # caching volumes); 65534 is the sidecar's own group. GKE's webhook mounts the pod volume of
  # this name as the cache (SidecarContainerCacheVolumeName) instead of an emptyDir on the disk.
  cache_memory = var.weights.mode == "gcsfuse" ? var.weights.cache_memory : null
  fuse_cache   = "gke-gcsfuse-cache"
  fuse_group   = 65534
  pod_context  = merge(local.pod_security, local.cache_memory == null ? {} : { fsGroup = local.fuse_group })

  probes = {
    for kind in ["startup", "readiness", "liveness"] : kind => {
      httpGet          = { path = var.probes.path, port = local.port_name }
      periodSeconds    = var.probes[kind].period_seconds
      failureThreshold = var.probes[kind].failure_threshold
      timeoutSeconds   = var.probes[kind].timeout_seconds
    }
  }

  env = [for e in var.container.env : merge(
    { name = e.name },
    e.value == null ? {} : { value = e.value },
    e.secret == null ? {} : { valueFrom = { secretKeyRef = e.secret } },
    e.config_map == null ? {} : { valueFrom = { configMapKeyRef = e.config_map } },
  )]

  server = merge(
    { name = local.server_name, image = var.container.image },
    length(var.container.command) == 0 ? {} : { command = var.container.command },
    length(var.container.args) == 0 ? {} : { args = var.container.args },
    {
      ports = concat(
        [{ name = local.port_name, containerPort = var.container.port }],
        var.container.metrics_port == null ? [] : [{ name = local.metrics_name, containerPort = var.container.metrics_port }],
      )
    },
    length(local.env) == 0 ? {} : { env = local.env },
    {
      resources = merge(
        { requests = var.resources.requests, limits = var.resources.limits },
        var.gpu.dra ? { claims = [{ name = local.gpu_claim }] } : {},
      )
      startupProbe    = local.probes.startup
      readinessProbe  = local.probes.readiness
      livenessProbe   = local.probes.liveness
      lifecycle       = { preStop = { exec = { command = ["sleep", tostring(var.shutdown.pre_stop_seconds)] } } }
      securityContext = local.server_security
      volumeMounts = concat(
        var.weights.mode == "image" ? [] : [merge(
          { name = local.weights_name, mountPath = var.weights.mount_path, readOnly = true },
          var.weights.sub_path == null ? {} : { subPath = var.weights.sub_path },
        )],
        [{ name = local.shm_name, mountPath = local.shm_path }],
      )
    },
  )

  init_containers = [for i in(var.weights.init == null ? [] : [var.weights.init]) : merge(
    { name = local.init_name, image = i.image, command = i.command },
    length(i.env) == 0 ? {} : { env = [for k in sort(keys(i.env)) : { name = k, value = i.env[k] }] },
    {
      resources       = i.resources
      securityContext = local.init_security
      volumeMounts    = [{ name = local.weights_name, mountPath = var.weights.mount_path }]
    },
  )]

  volumes = concat(
    var.weights.mode == "copy" ? [{ name = local.weights_name, emptyDir = { sizeLimit = var.weights.size_limit } }] : [],
    var.weights.mode == "gcsfuse" ? [{
      name = local.weights_name
      csi = {
        driver           = local.fuse_driver
        readOnly         = true
        volumeAttributes = { bucketName = var.weights.bucket, mountOptions = var.weights.mount_options }
      }
    }] : [],
    var.weights.mode == "blobfuse" ? [{
      name = local.weights_name
      csi  = { driver = var.weights.csi.driver, readOnly = true, volumeAttributes = var.weights.csi.volume_attributes }
    }] : [],
    local.cache_memory == null ? [] : [{ name = local.fuse_cache, emptyDir = { medium = "Memory", sizeLimit = local.cache_memory } }],
    [{ name = local.shm_name, emptyDir = { medium = "Memory", sizeLimit = var.shm_size } }],
  )

  node_affinity = merge(
    {
      requiredDuringSchedulingIgnoredDuringExecution = {
        nodeSelectorTerms = [{ matchExpressions = [{ key = var.placement.pool_label, operator = "In", values = var.placement.pools }] }]
      }
    },
    length(var.placement.preferred) == 0 ? {} : {
      preferredDuringSchedulingIgnoredDuringExecution = [for p in var.placement.preferred : {
        weight     = p.weight
        preference = { matchExpressions = [{ key = var.placement.pool_label, operator = "In", values = [p.pool] }] }
      }]
    },
  )

  pod_spec = merge(
    {
      serviceAccountName            = kubernetes_service_account_v1.this.metadata[0].name
      automountServiceAccountToken  = var.pod.automount_token
      priorityClassName             = kubernetes_priority_class_v1.this.metadata[0].name
      terminationGracePeriodSeconds = var.shutdown.grace_seconds
      securityContext               = local.pod_context
      affinity                      = { nodeAffinity = local.node_affinity }
      tolerations                   = [for t in var.placement.tolerations : { for k, v in t : k => v if v != null }]
    },
    length(var.placement.node_selector) == 0 ? {} : { nodeSelector = var.placement.node_selector },
    length(local.init_containers) == 0 ? {} : { initContainers = local.init_containers },
    var.gpu.dra ? { resourceClaims = [{ name = local.gpu_claim, resourceClaimTemplateName = "${var.name}-gpu" }] } : {},
    { containers = [local.server], volumes = local.volumes },
  )

  deployment = {
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = var.name, namespace = kubernetes_namespace_v1.this.metadata[0].name, labels = var.labels }
    spec = {
      replicas                = var.replicas.min
      progressDeadlineSeconds = var.rollout.progress_deadline_seconds
      revisionHistoryLimit    = var.rollout.revision_history_limit
      selector                = { matchLabels = var.selector }
      # Recreate takes no rollingUpdate (the API refuses one beside it).
      strategy = merge(
        { type = var.rollout.strategy },
        var.rollout.strategy == "Recreate" ? {} : {
          rollingUpdate = { maxSurge = var.rollout.max_surge, maxUnavailable = var.rollout.max_unavailable }
        },
      )
      template = {
        metadata = merge({ labels = var.pod.labels }, length(var.pod.annotations) == 0 ? {} : { annotations = var.pod.annotations })
        spec     = local.pod_spec
      }
    }
  }
}
