# gpuplat module eks-managed-prometheus 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Every value here is computed by the caller (gpuplat's infra stage).

variable "name" {
  description = "Name of the EKS cluster (its Pod Identity association) and the alias of the workspace and scraper."
  type        = string
}

variable "cluster_arn" {
  description = "ARN of the EKS cluster the collector scrapes. The cluster must allow private endpoint access and API authentication (access entries): the collector then gets its access entry from AMP itself."
  type        = string
}

variable "subnet_ids" {
  description = "Subnets of the cluster, in at least two availability zones: the collector puts a network interface in each."
  type        = list(string)

  validation {
    condition     = length(var.subnet_ids) >= 2
    error_message = "The managed collector needs at least two subnets in two availability zones."
  }
}

variable "security_group_ids" {
  description = "Security groups of the collector's network interfaces: the cluster security group, which the nodes share, so it reaches the pods' metrics ports."
  type        = list(string)
}

variable "scrape_interval" {
  description = "How often the collector scrapes (AMP's managed collector takes no less than 30s)."
  type        = string
}

variable "label_key" {
  description = "The pod label whose value names a workload (the Deployments' selector)."
  type        = string
}

variable "targets" {
  description = "The serving pods to scrape: per workload its namespace, the value of its pod label, the name of its metrics container port and the metrics path."
  type = list(object({
    workload  = string
    namespace = string
    label     = string
    port      = string
    path      = string
  }))
}

variable "keda" {
  description = "The namespace and service account of KEDA's operator, which signs its queries with the role this module creates (EKS Pod Identity)."
  type = object({
    namespace       = string
    service_account = string
  })
}

variable "tags" {
  description = "Tags of every resource the module creates."
  type        = map(string)
}
