# gpuplat module aks-managed-prometheus 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Every value here is computed by the caller (gpuplat's infra stage).

variable "name" {
  description = "Name of the cluster; the workspace, data collection objects and KEDA's identity are named after it."
  type        = string
}

variable "resource_group_name" {
  description = "Resource group of the workspace, the data collection objects and the identity (the cluster's)."
  type        = string
}

variable "location" {
  description = "Azure region: the cluster's, so one data collection endpoint serves a private cluster too."
  type        = string
}

variable "cluster_id" {
  description = "Resource id of the AKS cluster whose ama-metrics add-on (monitor_metrics) sends to the workspace."
  type        = string
}

variable "oidc_issuer_url" {
  description = "The cluster's OIDC issuer: tokens it issues to KEDA's operator are exchanged for the identity's."
  type        = string
}

variable "keda" {
  description = "Namespace and service account of KEDA's operator."
  type = object({
    namespace       = string
    service_account = string
  })
}

variable "tags" {
  description = "Tags of every resource the module creates."
  type        = map(string)
}
