# gpuplat module gke-cluster 1.7.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "project" {
  description = "GCP project id that owns the cluster."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project))
    error_message = "project must be a GCP project id: 6-30 lowercase letters, digits and dashes."
  }
}

variable "name" {
  description = "Cluster name."
  type        = string

  validation {
    condition     = can(regex("^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$", var.name))
    error_message = "name must be 1-40 lowercase letters, digits and dashes, starting with a letter."
  }
}

variable "location" {
  description = "Region (regional control plane) or zone (zonal control plane)."
  type        = string
}

variable "node_locations" {
  description = "Zones for the cluster's nodes. Empty: GKE's default zones of the location."
  type        = list(string)
  default     = []
}

variable "release_channel" {
  description = "GKE release channel: RAPID, REGULAR, STABLE, EXTENDED or UNSPECIFIED."
  type        = string
  default     = "REGULAR"

  validation {
    condition     = contains(["RAPID", "REGULAR", "STABLE", "EXTENDED", "UNSPECIFIED"], var.release_channel)
    error_message = "release_channel must be RAPID, REGULAR, STABLE, EXTENDED or UNSPECIFIED."
  }
}

variable "kubernetes_version" {
  description = "Minimum control-plane version (e.g. 1.34). Null: the release channel's default."
  type        = string
  default     = null
}

variable "deletion_protection" {
  description = "Refuse to destroy the cluster."
  type        = bool
  default     = true
}

variable "network" {
  description = "VPC network settings."
  type = object({
    network             = optional(string, "default")
    subnetwork          = optional(string, "default")
    private_nodes       = optional(bool, false)
    cloud_nat           = optional(bool, true)
    control_plane_cidr  = optional(string)
    authorized_networks = optional(list(object({ cidr = string, name = optional(string, "") })), [])
  })
  default = {}

  validation {
    condition     = !var.network.private_nodes || var.network.control_plane_cidr != null
    error_message = "private nodes need network.control_plane_cidr (a /28)."
  }

  validation {
    condition     = alltrue([for n in var.network.authorized_networks : can(cidrhost(n.cidr, 0))])
    error_message = "every authorized network must be an IPv4 CIDR."
  }
}

variable "system_pool" {
  description = "The CPU pool for system pods, so GPU pools can scale to zero."
  type = object({
    machine_type = optional(string, "e2-standard-4")
    min_nodes    = optional(number, 1)
    max_nodes    = optional(number, 3)
    disk_size_gb = optional(number, 100)
  })
  default = {}

  validation {
    condition     = var.system_pool.min_nodes >= 0 && var.system_pool.min_nodes <= var.system_pool.max_nodes
    error_message = "system_pool needs 0 <= min_nodes <= max_nodes."
  }
}

variable "gcs_fuse_csi_driver" {
  description = "Enable the Cloud Storage FUSE CSI driver (mounting model weights from GCS)."
  type        = bool
  default     = true
}

variable "webhook_ports" {
  description = "TCP ports on the nodes that a private control plane must reach: the admission webhooks and aggregated APIs of the add-ons the platform stage installs (e.g. 6443 for KEDA's metrics API, 9443 for the KEDA, Kueue and LeaderWorkerSet webhooks)."
  type        = list(number)
  default     = []

  validation {
    condition     = alltrue([for p in var.webhook_ports : p >= 1 && p <= 65535 && p != 443 && p != 10250])
    error_message = "webhook_ports must be TCP ports other than 443 and 10250 (which GKE opens itself)."
  }
}

variable "maintenance" {
  description = "GKE maintenance window (RFC 3339 start and end of its first opening, RFC 5545 recurrence) and exclusions. Null: GKE's default (any time)."
  type = object({
    window = optional(object({
      start_time = string
      end_time   = string
      recurrence = string
    }))
    exclusions = optional(list(object({
      name       = string
      start_time = string
      end_time   = string
      scope      = optional(string, "NO_MINOR_OR_NODE_UPGRADES")
    })), [])
  })
  default = null

  validation {
    condition = var.maintenance == null ? true : alltrue([
      for e in var.maintenance.exclusions : contains(["NO_UPGRADES", "NO_MINOR_UPGRADES", "NO_MINOR_OR_NODE_UPGRADES"], e.scope)
    ])
    error_message = "maintenance exclusions need scope NO_UPGRADES, NO_MINOR_UPGRADES or NO_MINOR_OR_NODE_UPGRADES."
  }
}

variable "dcgm_metrics" {
  description = "GKE collects DCGM GPU metrics into Managed Service for Prometheus (monitoring_config DCGM); false when no DCGM metrics are wanted or another exporter (the GPU Operator's) runs."
  type        = bool
  default     = true
}

variable "image_streaming" {
  description = "The node pools stream container images (GCFS): enable the Container File System API and let the node service account consume it."
  type        = bool
  default     = true
}

variable "resource_labels" {
  description = "Labels on the cluster and its node VMs (billing and ownership)."
  type        = map(string)
  default     = { managed-by = "gpuplat" }
}

variable "rdma_network" {
  description = "GPUDirect RDMA: a VPC of this name with the RoCE network profile (projects/P/global/networkProfiles/<zone>-vpc-roce), its MTU, and one subnet per GPU NIC (name and IPv4 range, in NIC order); turns on multi-networking. Null: none."
  type = object({
    name    = string
    profile = string
    mtu     = optional(number, 8896)
    subnets = list(object({ name = string, cidr = string }))
  })
  default = null

  validation {
    condition     = var.rdma_network == null ? true : can(regex("^projects/[^/]+/global/networkProfiles/[a-z]+-[a-z]+[0-9]+-[a-z]-vpc-roce$", var.rdma_network.profile))
    error_message = "rdma_network.profile must be a RoCE network profile: projects/<project>/global/networkProfiles/<zone>-vpc-roce."
  }

  validation {
    condition     = var.rdma_network == null ? true : alltrue([for s in var.rdma_network.subnets : can(cidrhost(s.cidr, 0))])
    error_message = "every rdma_network subnet needs an IPv4 CIDR."
  }
}

variable "gpu_networks" {
  description = "GPUDirect-TCPXO: gVNIC VPCs of these names with one subnet each (name and IPv4 range), one per GPU NIC in NIC order, at this MTU, and a rule that opens each to its own range; turns on multi-networking. Null: none."
  type = object({
    mtu = optional(number, 8244)
    networks = list(object({
      name   = string
      subnet = string
      cidr   = string
    }))
  })
  default = null

  validation {
    condition     = var.gpu_networks == null ? true : alltrue([for n in var.gpu_networks.networks : can(cidrhost(n.cidr, 0))])
    error_message = "every gpu_networks entry needs an IPv4 CIDR."
  }
}

variable "multi_networking" {
  description = "Turn on GKE multi-networking without creating a GPU network (the pools attach to existing ones)."
  type        = bool
  default     = false
}
