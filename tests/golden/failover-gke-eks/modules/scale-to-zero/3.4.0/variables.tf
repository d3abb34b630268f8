# gpuplat module scale-to-zero 3.4.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Every value here is computed by the caller (gpuplat's serving plan computes each once and
# writes the same values into its plain manifests), so there are no defaults to drift from it.

variable "name" {
  description = "Workload name (the Deployment and Service of the model-server module)."
  type        = string
}

variable "namespace" {
  description = "Namespace of the workload."
  type        = string
}

variable "labels" {
  description = "Labels of every object the module creates."
  type        = map(string)
}

variable "port" {
  description = "Port of the workload's Service."
  type        = number
}

variable "replicas" {
  description = "Replica bounds: min 0 scales to zero (needs http), min 1 or more keeps replicas warm; max is the cap the pools' GPUs allow."
  type = object({
    min = number
    max = number
  })

  validation {
    condition     = var.replicas.max >= 1 && var.replicas.min >= 0 && var.replicas.min <= var.replicas.max
    error_message = "replicas must satisfy 0 <= min <= max and max >= 1."
  }
}

variable "target" {
  description = "What the ScaledObject scales, by apiVersion and kind (its name is name): the Deployment, or a multi-host server's LeaderWorkerSet, whose scale subresource counts whole groups."
  type = object({
    api_version = string
    kind        = string
  })
  default = {
    api_version = "apps/v1"
    kind        = "Deployment"
  }
}

variable "http" {
  description = "Scale from zero on HTTP traffic (null: no HTTP trigger): the front Service clients call (its name, the Host headers routed to the workload, the interceptor it points at), an optional load balancer in front of the interceptor (door: a LoadBalancer Service in the interceptor's namespace selecting its pods by selector, to its named target_port, with the cloud's annotations), so the workload has an address outside the cluster while at zero replicas, the HTTP add-on's external scaler (host:port), the pending requests per replica it aims for, and how long the interceptor holds a request while a node and a replica start (the Deployment's progress deadline)."
  type = object({
    front = object({
      name          = string
      hosts         = list(string)
      external_name = string
      port          = number
    })
    door = optional(object({
      namespace   = string
      selector    = map(string)
      target_port = string
      annotations = map(string)
    }))
    scaler                  = string
    target_pending_requests = number
    wait_seconds            = number
  })
  default = null
}

variable "cooldown_seconds" {
  description = "Seconds without requests before scaling to zero; a GPU server reloads slowly, so keep it generous."
  type        = number
}

variable "polling_interval_seconds" {
  description = "Seconds between KEDA's checks of the triggers."
  type        = number
}

variable "behavior" {
  description = "The HPA behaviour KEDA writes: stabilisation windows (seconds) and one rate-limit policy each way ({type = Pods, value, periodSeconds})."
  type = object({
    up_window_seconds   = number
    up                  = object({ type = string, value = number, periodSeconds = number })
    down_window_seconds = number
    down                = object({ type = string, value = number, periodSeconds = number })
  })
}

variable "prometheus" {
  description = "Optional trigger on the server's own gauge: the Prometheus query address, the query, its per-replica threshold (a number, as text), more trigger metadata the signer needs (Amazon Managed Prometheus: awsRegion), and the KEDA pod identity that signs the query: its provider (gcp, aws, azure-workload; null: none), owner (keda: the operator's own identity) and identity id (azure-workload: the client id of a user-assigned identity)."
  type = object({
    address        = string
    query          = string
    threshold      = string
    metadata       = optional(map(string), {})
    auth_provider  = optional(string)
    identity_owner = optional(string)
    identity_id    = optional(string)
  })
  default = null
}

variable "scrape" {
  description = "The managed collector's scrape of the workload's pods (GKE: a PodMonitoring; null: none): the pods' selector, the metrics port by name (the server's API port) or number, the path and the interval."
  type = object({
    selector = map(string)
    port     = string
    path     = string
    interval = string
  })
  default = null
}

variable "pod_monitor" {
  description = "A PodMonitor that scrapes the workload's pods (null: none): its apiVersion (monitoring.coreos.com/v1 for the Prometheus Operator, azmonitoring.coreos.com/v1 for the AKS ama-metrics add-on), the pods' selector, the metrics port by name, the path and the interval."
  type = object({
    api_version = string
    selector    = map(string)
    port        = string
    path        = string
    interval    = string
  })
  default = null

  validation {
    condition     = var.pod_monitor == null ? true : contains(["monitoring.coreos.com/v1", "azmonitoring.coreos.com/v1"], var.pod_monitor.api_version)
    error_message = "pod_monitor.api_version must be monitoring.coreos.com/v1 or azmonitoring.coreos.com/v1."
  }
}
