# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Every value here is computed by the caller (gpuplat's serving plan computes each once and
# writes the same values into its plain manifests); the module turns them into objects and
# decides nothing of its own, so there are no defaults to drift from the caller's.

variable "name" {
  description = "Workload name: Deployment, Service and PodDisruptionBudget (and the scale target of the scale-to-zero module's ScaledObject)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$", var.name))
    error_message = "name must be a DNS label of at most 40 characters."
  }
}

variable "namespace" {
  description = "Namespace, created by the module."
  type        = string
}

variable "labels" {
  description = "Labels of every object the module creates."
  type        = map(string)
}

variable "selector" {
  description = "Labels that select the workload's pods (Deployment, Service, PodDisruptionBudget)."
  type        = map(string)
}

variable "pod" {
  description = "Labels and annotations of the pods (the labels include the selector), and whether they mount a service account token."
  type = object({
    labels          = map(string)
    annotations     = map(string)
    automount_token = bool
  })

  validation {
    condition     = alltrue([for k, v in var.selector : lookup(var.pod.labels, k, null) == v])
    error_message = "pod.labels must include every selector label."
  }
}

variable "container" {
  description = "The server container: image (pin a tag or digest), command, args, port, the separate metrics port if the server has one, and environment (a value, or a key of a Secret or ConfigMap)."
  type = object({
    image   = string
    command = list(string)
    args    = list(string)
    port    = number
    # A server that serves Prometheus metrics on a port of its own (Triton: 8002), named
    # "metrics" so that scrapes select it by name; null: metrics on the serving port.
    metrics_port = optional(number)
    env = list(object({
      name       = string
      value      = optional(string)
      secret     = optional(object({ name = string, key = string, optional = bool }))
      config_map = optional(object({ name = string, key = string, optional = bool }))
    }))
  })

  validation {
    condition     = var.container.port >= 1 && var.container.port <= 65535
    error_message = "container.port must be 1-65535."
  }

  validation {
    condition     = alltrue([for e in var.container.env : length([for s in [e.value, e.secret, e.config_map] : s if s != null]) == 1])
    error_message = "each container.env entry needs exactly one of value, secret and config_map."
  }
}

variable "gpu" {
  description = "GPUs per replica, and whether they come from a Dynamic Resource Allocation claim (device_class) instead of nvidia.com/gpu requests."
  type = object({
    count        = number
    dra          = bool
    device_class = string
  })

  validation {
    condition     = var.gpu.count >= 1
    error_message = "gpu.count must be at least 1."
  }
}

variable "resources" {
  description = "Requests and limits of the server container, GPUs included unless gpu.dra."
  type = object({
    requests = map(string)
    limits   = map(string)
  })
}

variable "replicas" {
  description = "Replica bounds; the Deployment starts at min and the autoscaler owns the count afterwards."
  type = object({
    min = number
    max = number
  })

  validation {
    condition     = var.replicas.min >= 0 && var.replicas.min <= var.replicas.max
    error_message = "replicas needs 0 <= min <= max."
  }
}

variable "placement" {
  description = "Node pools (values of the pool_label node label) the pods may use, the preferred ones with their weights, tolerations, and node labels to select besides the pools (node_selector: e.g. GKE's cloud.google.com/compute-class of a capacity ladder)."
  type = object({
    pool_label    = string
    pools         = list(string)
    preferred     = list(object({ pool = string, weight = number }))
    node_selector = optional(map(string), {})
    tolerations = list(object({
      key      = string
      operator = string
      value    = optional(string)
      effect   = string
    }))
  })

  validation {
    condition     = length(var.placement.pools) > 0
    error_message = "placement.pools needs at least one pool."
  }
}

variable "probes" {
  description = "HTTP probes of the health path: startup (sized from the weights; liveness waits for it), readiness (gates traffic) and liveness."
  type = object({
    path      = string
    startup   = object({ period_seconds = number, failure_threshold = number, timeout_seconds = number })
    readiness = object({ period_seconds = number, failure_threshold = number, timeout_seconds = number })
    liveness  = object({ period_seconds = number, failure_threshold = number, timeout_seconds = number })
  })
}

variable "shutdown" {
  description = "Draining: preStop sleep while endpoints drop the pod, then the grace period for in-flight requests."
  type = object({
    pre_stop_seconds = number
    grace_seconds    = number
  })

  validation {
    condition     = var.shutdown.grace_seconds > var.shutdown.pre_stop_seconds
    error_message = "shutdown.grace_seconds must exceed pre_stop_seconds."
  }
}

variable "rollout" {
  description = "Rolling update (max_surge 0 when the pools cannot hold one more replica), the progress deadline and the ReplicaSets kept; strategy Recreate stops every old pod before new ones start (max_surge and max_unavailable then unused)."
  type = object({
    max_surge                 = number
    max_unavailable           = number
    progress_deadline_seconds = number
    revision_history_limit    = number
    strategy                  = optional(string, "RollingUpdate")
  })

  validation {
    condition     = contains(["RollingUpdate", "Recreate"], var.rollout.strategy)
    error_message = "rollout.strategy must be RollingUpdate or Recreate."
  }

  validation {
    condition     = var.rollout.max_surge + var.rollout.max_unavailable >= 1
    error_message = "rollout needs max_surge + max_unavailable >= 1."
  }
}

variable "priority" {
  description = "Priority class created for the workload."
  type = object({
    name  = string
    value = number
  })
}

variable "weights" {
  description = "How weights reach the server: copy (an init container, with its environment, into an emptyDir of size_limit), gcsfuse (GKE Cloud Storage FUSE; cache_memory: its file cache in a RAM-backed gke-gcsfuse-cache volume of that size), blobfuse (a CSI volume: the AKS Blob CSI driver and its volume attributes) or image; mount_path is where the server's volume is mounted, sub_path the folder of the volume it shows."
  type = object({
    mount_path    = string
    mode          = string
    size_limit    = optional(string)
    bucket        = optional(string)
    mount_options = optional(string)
    cache_memory  = optional(string)
    sub_path      = optional(string)
    csi = optional(object({
      driver            = string
      volume_attributes = map(string)
    }))
    init = optional(object({
      image     = string
      command   = list(string)
      env       = optional(map(string), {})
      resources = object({ requests = map(string), limits = map(string) })
    }))
  })

  validation {
    condition     = contains(["copy", "gcsfuse", "blobfuse", "image"], var.weights.mode)
    error_message = "weights.mode must be copy, gcsfuse, blobfuse or image."
  }

  validation {
    condition     = var.weights.mode != "blobfuse" || var.weights.csi != null
    error_message = "weights.mode blobfuse needs csi (driver and volume_attributes)."
  }

  validation {
    condition     = var.weights.mode != "copy" || (var.weights.init != null && var.weights.size_limit != null)
    error_message = "weights.mode copy needs init and size_limit."
  }

  validation {
    condition     = var.weights.mode != "gcsfuse" || var.weights.bucket != null
    error_message = "weights.mode gcsfuse needs bucket."
  }
}

variable "shm_size" {
  description = "Size of the in-memory /dev/shm volume (NCCL and multi-process servers need more than the default 64Mi)."
  type        = string
}

variable "disruption" {
  description = "PodDisruptionBudget: replicas a drain or upgrade may evict at once."
  type = object({
    max_unavailable = number
  })
}

variable "service_account_annotations" {
  description = "Annotations of the workload's service account (e.g. cloud workload identity)."
  type        = map(string)
  default     = {}
}

variable "gpu_quota" {
  description = "GPUs (requests.nvidia.com/gpu) the namespace may request, as a ResourceQuota: the one cap of a capacity ladder, whose node pools the cloud does not add up. null: no quota."
  type        = number
  default     = null

  validation {
    condition     = var.gpu_quota == null ? true : var.gpu_quota >= 1
    error_message = "gpu_quota must be at least 1 (or null)."
  }
}

variable "group" {
  description = "A multi-host replica: a LeaderWorkerSet group of size pods (one per node) instead of a Deployment. leader_command and worker_command replace the server's command and args (the leader alone keeps the port and the probes); max_surge and max_unavailable count groups; service_selector picks the leaders; queue (optional) admits each group whole through Kueue: a ResourceFlavor of the pool (node_labels), a ClusterQueue for the namespace alone with quotas (resource -> nominal quota) of every resource the groups request, and the LocalQueue the set names, and with topology (optional) a Kueue Topology of those node labels (widest first) the flavor names, for topology-aware scheduling; capabilities (optional) are Linux capabilities the server container adds for the group's fabric (IPC_LOCK for RDMA), all others dropped; host_mounts (optional): node directories the server container mounts, read-only unless read_only is false (a GPU fabric's plugin, its devices); sidecar (optional): a fabric's daemon in every pod (GKE TCPXO's RxDM), the last init container with restartPolicy Always, with its env, added capabilities and node directories, and startup_probe (optional) an exec startup probe the kubelet waits on before it starts the server; autoscaled (optional, default false): the scale-to-zero module's ScaledObject owns the count of groups (the set's scale subresource), so the set leaves spec.replicas to it; hold (optional, default 0: none): a move's held count of an autoscaled set, which the set then names and waits for, applied under the field manager gpuplat-hold. null: one pod per replica (a Deployment)."
  type = object({
    size             = number
    leader_command   = list(string)
    worker_command   = list(string)
    max_surge        = number
    max_unavailable  = number
    startup_policy   = string
    restart_policy   = string
    service_selector = map(string)
    capabilities     = optional(list(string), [])
    autoscaled       = optional(bool, false)
    hold             = optional(number, 0)
    host_mounts = optional(list(object({
      name       = string
      host_path  = string
      mount_path = string
      read_only  = optional(bool, true)
    })), [])
    sidecar = optional(object({
      name         = string
      image        = string
      command      = list(string)
      env          = optional(map(string), {})
      capabilities = optional(list(string), [])
      host_mounts = optional(list(object({
        name       = string
        host_path  = string
        mount_path = string
        read_only  = optional(bool, true)
      })), [])
      startup_probe = optional(object({
        command               = list(string)
        initial_delay_seconds = optional(number, 0)
        period_seconds        = optional(number, 10)
        timeout_seconds       = optional(number, 1)
        failure_threshold     = optional(number, 3)
      }))
    }))
    queue = optional(object({
      local_queue   = string
      cluster_queue = string
      flavor        = string
      namespace     = string
      node_labels   = map(string)
      quotas        = map(string)
      topology = optional(object({
        name   = string
        levels = list(string)
      }))
    }))
  })
  default = null

  validation {
    condition     = var.group == null ? true : var.group.size >= 2 && (var.group.max_surge > 0 || var.group.max_unavailable > 0)
    error_message = "group.size must be at least 2, and max_surge or max_unavailable above 0 (LeaderWorkerSet refuses both 0)."
  }
}

variable "load_balancer" {
  description = "An address outside the cluster: the Service becomes a LoadBalancer with these annotations (the cloud's, for an internal or an external load balancer). null: a ClusterIP Service."
  type = object({
    annotations = map(string)
  })
  default = null
}
