# gpuplat module aks-workload-identity 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "name" {
  description = "Name of the identity and of its federated credential."
  type        = string

  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9_-]{2,119}$", var.name))
    error_message = "name must be 3-120 letters, digits, - and _, starting with a letter or digit."
  }
}

variable "resource_group_name" {
  description = "Resource group of the identity (the cluster's)."
  type        = string
}

variable "location" {
  description = "Azure region of the identity (the cluster's)."
  type        = string
}

variable "oidc_issuer_url" {
  description = "OIDC issuer of the cluster (the cluster module's oidc_issuer_url)."
  type        = string
}

variable "subject" {
  description = "The one service account that may act as the identity: system:serviceaccount:<namespace>:<name>."
  type        = string

  validation {
    condition     = can(regex("^system:serviceaccount:[a-z0-9-]+:[a-z0-9.-]+$", var.subject))
    error_message = "subject must be system:serviceaccount:<namespace>:<service account>."
  }
}

variable "role" {
  description = "The identity's one role and its scope, by default read access to one Blob container (its resource id, .../blobServices/default/containers/<name>)."
  type = object({
    name  = optional(string, "Storage Blob Data Reader")
    scope = string
  })

  validation {
    condition     = can(regex("^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/", var.role.scope))
    error_message = "role.scope must be an Azure resource id."
  }
}

variable "tags" {
  description = "Tags on the identity."
  type        = map(string)
  default     = { managed-by = "gpuplat" }
}
