# gpuplat module gke-metrics-reader 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "project" {
  description = "GCP project id of the GKE cluster, whose Managed Prometheus data KEDA queries."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project))
    error_message = "project must be a GCP project id: 6-30 lowercase letters, digits and dashes."
  }
}

variable "namespace" {
  description = "Namespace of KEDA's operator."
  type        = string
}

variable "service_account" {
  description = "Name of KEDA's operator Kubernetes service account."
  type        = string
}
