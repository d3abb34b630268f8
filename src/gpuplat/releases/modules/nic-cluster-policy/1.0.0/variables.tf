# gpuplat module nic-cluster-policy 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "pool_label" {
  description = "The node label that names each node's pool (gpuplat.dev/pool)."
  type        = string
}

variable "pools" {
  description = "Pools (values of pool_label) whose nodes have InfiniBand: the driver and the device plugin run there only."
  type        = list(string)

  validation {
    condition     = length(var.pools) > 0
    error_message = "pools must name at least one pool."
  }
}

variable "tolerations" {
  description = "Taints of the pools' nodes the operands tolerate (nvidia.com/gpu, the cloud's spot taint)."
  type = list(object({
    key      = string
    operator = string
    effect   = string
  }))
  default = [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }]
}

variable "resource_name" {
  description = "Extended resource the pods request: rdma/<resource_name>."
  type        = string
  default     = "ib"

  validation {
    condition     = can(regex("^[a-z0-9_]+$", var.resource_name))
    error_message = "resource_name must be lower-case letters, digits and underscores."
  }
}

variable "hca_max" {
  description = "Pods that may share one node's HCAs at once (rdmaHcaMax)."
  type        = number
  default     = 63

  validation {
    condition     = var.hca_max >= 1
    error_message = "hca_max must be at least 1."
  }
}

variable "vendors" {
  description = "PCI vendor ids of the NICs the device plugin advertises (15b3: Mellanox / NVIDIA)."
  type        = list(string)
  default     = ["15b3"]
}

variable "images" {
  description = "Image of each operand: ofed_driver (doca-driver; the operator appends the node's OS and architecture to the version) and rdma_shared_device_plugin."
  type = object({
    ofed_driver = object({
      repository = string
      image      = string
      version    = string
    })
    rdma_shared_device_plugin = object({
      repository = string
      image      = string
      version    = string
    })
  })
}

variable "drain_timeout_seconds" {
  description = "How long a driver upgrade waits for a node's pods to leave (0: forever). Give at least the model servers' termination grace."
  type        = number
  default     = 300
}
