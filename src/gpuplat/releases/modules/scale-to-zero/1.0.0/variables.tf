# gpuplat module scale-to-zero 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "name" {
  description = "Workload name (the Deployment and Service of the model-server module)."
  type        = string
}

variable "namespace" {
  description = "Namespace of the workload."
  type        = string
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

variable "cooldown_seconds" {
  description = "Seconds without requests before scaling to zero; a GPU server reloads slowly, so keep it generous."
  type        = number
  default     = 600
}

variable "http_scaler" {
  description = "host:port of the KEDA HTTP add-on external scaler (the platform module's http_scaler output)."
  type        = string
}

variable "interceptor" {
  description = "host:port of the KEDA HTTP add-on interceptor proxy (the platform module's http_interceptor output)."
  type        = string
}

variable "target_pending_requests" {
  description = "Pending requests per replica the HTTP trigger aims for."
  type        = number
  default     = 4
}

variable "prometheus" {
  description = "Optional second trigger: a Prometheus query on the server's own queue (e.g. waiting requests)."
  type = object({
    address   = string
    query     = string
    threshold = number
  })
  default = null
}
