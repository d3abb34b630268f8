# gpuplat module model-server 1.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "name" {
  description = "Workload name: Deployment, Service and labels."
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

variable "container" {
  description = "The server container: image (pin a tag or digest), command, args, port, health path, environment."
  type = object({
    image       = string
    command     = optional(list(string), [])
    args        = optional(list(string), [])
    port        = number
    health_path = optional(string, "/health")
    env         = optional(map(string), {})
  })

  validation {
    condition     = var.container.port >= 1 && var.container.port <= 65535
    error_message = "container.port must be 1-65535."
  }
}

variable "gpu" {
  description = "GPUs per replica: count of nvidia.com/gpu (requests = limits), or through a DRA claim."
  type = object({
    count        = number
    dra          = optional(bool, false)
    device_class = optional(string, "gpu.nvidia.com")
  })

  validation {
    condition     = var.gpu.count >= 1
    error_message = "gpu.count must be at least 1."
  }
}

variable "resources" {
  description = "CPU and memory requests (memory is also the limit), and ephemeral storage for copied weights."
  type = object({
    cpu               = string
    memory            = string
    ephemeral_storage = optional(string)
  })
}

variable "replicas" {
  description = "Replica bounds; the Deployment starts at min."
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
  description = "Node pools (gpuplat.dev/pool labels) the pods may use, most preferred first, and tolerations."
  type = object({
    pools = list(string)
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

variable "startup" {
  description = "Startup probe: period and failure threshold; period x threshold covers image pull plus weight load."
  type = object({
    period_seconds    = number
    failure_threshold = number
  })
}

variable "health" {
  description = "Readiness and liveness probe periods; liveness only starts once the startup probe passed."
  type = object({
    readiness_period_seconds = optional(number, 5)
    liveness_period_seconds  = optional(number, 10)
    liveness_failures        = optional(number, 6)
  })
  default = {}
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
  description = "Rolling update: max_surge 0 when the pools cannot hold one more replica."
  type = object({
    max_surge       = number
    max_unavailable = number
  })

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
  description = "How weights reach the server: copy (init container into an emptyDir), gcsfuse (GKE Cloud Storage FUSE) or image."
  type = object({
    mode          = string
    mount_path    = optional(string, "/models")
    init_image    = optional(string)
    init_command  = optional(list(string), [])
    size_limit    = optional(string)
    bucket        = optional(string)
    mount_options = optional(string)
  })

  validation {
    condition     = contains(["copy", "gcsfuse", "image"], var.weights.mode)
    error_message = "weights.mode must be copy, gcsfuse or image."
  }

  validation {
    condition     = var.weights.mode != "copy" || (var.weights.init_image != null && length(var.weights.init_command) > 0)
    error_message = "weights.mode copy needs init_image and init_command."
  }

  validation {
    condition     = var.weights.mode != "gcsfuse" || var.weights.bucket != null
    error_message = "weights.mode gcsfuse needs bucket."
  }
}

variable "hpa" {
  description = "Scale on a per-pod metric with an HPA (null: no HPA)."
  type = object({
    metric = string
    target = number
  })
  default = null
}

variable "service_account_annotations" {
  description = "Annotations of the workload's service account (e.g. cloud workload identity)."
  type        = map(string)
  default     = {}
}
