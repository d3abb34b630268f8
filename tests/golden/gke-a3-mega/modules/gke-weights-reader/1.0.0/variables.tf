# gpuplat module gke-weights-reader 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "project" {
  description = "GCP project id of the GKE cluster (its Workload Identity pool is <project>.svc.id.goog)."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project))
    error_message = "project must be a GCP project id: 6-30 lowercase letters, digits and dashes."
  }
}

variable "namespace" {
  description = "Namespace of the model server's Kubernetes service account."
  type        = string
}

variable "service_account" {
  description = "Name of the model server's Kubernetes service account."
  type        = string
}

variable "bucket" {
  description = "The Cloud Storage bucket that holds the model's weights (a name, without gs://)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][-_.a-z0-9]{1,220}[a-z0-9]$", var.bucket))
    error_message = "bucket must be a Cloud Storage bucket name (no gs:// and no path)."
  }
}
