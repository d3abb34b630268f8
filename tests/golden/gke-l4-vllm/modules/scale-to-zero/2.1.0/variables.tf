# gpuplat module scale-to-zero 2.1.0: generated, do not edit.
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

variable "max_replicas" {
  description = "Most replicas."
  type        = number

  validation {
    condition     = var.max_replicas >= 1
    error_message = "max_replicas must be at least 1."
  }
}

variable "min_replicas" {
  description = "Fewest replicas KEDA keeps (minReplicaCount): 0 to scale to zero; a failover raises it to the source's serving count until the target is ready."
  type        = number
  default     = 0

  validation {
    condition     = var.min_replicas >= 0
    error_message = "min_replicas cannot be negative."
  }
}

variable "front" {
  description = "The Service clients call: its name, the Host headers routed to the workload (its names), and the interceptor it points at (external_name and port)."
  type = object({
    name          = string
    hosts         = list(string)
    external_name = string
    port          = number
  })
}

variable "http_scaler" {
  description = "host:port of the KEDA HTTP add-on external scaler (the platform module's http_scaler output)."
  type        = string
}

variable "cooldown_seconds" {
  description = "Seconds without requests before scaling to zero; a GPU server reloads slowly, so keep it generous."
  type        = number
}

variable "polling_interval_seconds" {
  description = "Seconds between KEDA's checks of the triggers."
  type        = number
}

variable "target_pending_requests" {
  description = "Pending requests per replica the HTTP trigger aims for."
  type        = number
}

variable "prometheus" {
  description = "Optional second trigger: a Prometheus query on the server's own queue (e.g. waiting requests) and its threshold (a number, as text)."
  type = object({
    address   = string
    query     = string
    threshold = string
  })
  default = null
}
