# gpuplat module gke-gpu-node-pool 1.5.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "project" {
  description = "GCP project id of the cluster."
  type        = string
}

variable "location" {
  description = "Location (region or zone) of the cluster."
  type        = string
}

variable "cluster" {
  description = "Name of the cluster the pool belongs to."
  type        = string
}

variable "name" {
  description = "Pool name, unique in the cluster."
  type        = string

  validation {
    condition     = can(regex("^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$", var.name))
    error_message = "name must be 1-40 lowercase letters, digits and dashes, starting with a letter."
  }
}

variable "node_locations" {
  description = "Zones of the pool's nodes. Null: the cluster's node locations."
  type        = list(string)
  default     = null
}

variable "zone_count" {
  description = "Zones the pool's nodes span, to spread its minimum over them. Null: the length of node_locations, or 1."
  type        = number
  default     = null

  validation {
    condition     = var.zone_count == null || try(var.zone_count >= 1, false)
    error_message = "zone_count must be at least 1."
  }
}

variable "machine_type" {
  description = "GCE machine type, e.g. g2-standard-8 or a3-highgpu-8g."
  type        = string
}

variable "accelerator" {
  description = "The GPU: accelerator type and count per node, driver installation, sharing or MIG partitioning."
  type = object({
    type           = string
    count          = number
    driver_version = optional(string, "LATEST")
    sharing = optional(object({
      strategy    = string
      max_clients = number
    }))
    partition_size = optional(string)
  })

  validation {
    condition     = var.accelerator.count >= 1
    error_message = "accelerator.count must be at least 1."
  }

  validation {
    condition     = contains(["DEFAULT", "LATEST", "INSTALLATION_DISABLED"], var.accelerator.driver_version)
    error_message = "accelerator.driver_version must be DEFAULT, LATEST or INSTALLATION_DISABLED."
  }

  validation {
    condition = (
      var.accelerator.sharing == null ? true :
      contains(["TIME_SHARING", "MPS"], var.accelerator.sharing.strategy) &&
      var.accelerator.sharing.max_clients >= 2 && var.accelerator.sharing.max_clients <= 48
    )
    error_message = "accelerator.sharing needs strategy TIME_SHARING or MPS and 2-48 max_clients."
  }

  validation {
    condition     = var.accelerator.partition_size == null || can(regex("^[0-9]+g\\.[0-9]+gb(\\+me)?$", var.accelerator.partition_size))
    error_message = "accelerator.partition_size must be a MIG profile such as 1g.10gb."
  }
}

variable "autoscaling" {
  description = "Node bounds; min 0 lets the pool cost nothing while idle."
  type = object({
    min_nodes       = number
    max_nodes       = number
    per_zone        = optional(bool, false)
    location_policy = optional(string, "BALANCED")
  })

  validation {
    condition     = var.autoscaling.min_nodes >= 0 && var.autoscaling.min_nodes <= var.autoscaling.max_nodes
    error_message = "autoscaling needs 0 <= min_nodes <= max_nodes."
  }

  validation {
    condition     = contains(["BALANCED", "ANY"], var.autoscaling.location_policy)
    error_message = "autoscaling.location_policy must be BALANCED or ANY."
  }
}

variable "capacity" {
  description = "Where the GPUs come from: ON_DEMAND, SPOT, RESERVATION, FLEX_START or QUEUED."
  type = object({
    type                = string
    reservation         = optional(string)
    reservation_project = optional(string)
    max_run_duration    = optional(string)
  })
  default = { type = "ON_DEMAND" }

  validation {
    condition     = contains(["ON_DEMAND", "SPOT", "RESERVATION", "FLEX_START", "QUEUED"], var.capacity.type)
    error_message = "capacity.type must be ON_DEMAND, SPOT, RESERVATION, FLEX_START or QUEUED."
  }

  validation {
    condition     = var.capacity.max_run_duration == null || var.capacity.type == "FLEX_START"
    error_message = "capacity.max_run_duration is only for FLEX_START pools."
  }
}

variable "compact_placement" {
  description = "Place nodes physically close (COMPACT policy), optionally with an existing resource policy."
  type = object({
    enabled     = bool
    policy_name = optional(string)
  })
  default = { enabled = false }
}

variable "labels" {
  description = "Kubernetes labels on the nodes."
  type        = map(string)
  default     = {}
}

variable "taints" {
  description = "Extra Kubernetes taints. nvidia.com/gpu=present:NoSchedule is always added."
  type = list(object({
    key    = string
    value  = string
    effect = string
  }))
  default = []

  validation {
    condition     = alltrue([for t in var.taints : contains(["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE"], t.effect)])
    error_message = "taint effects must be NO_SCHEDULE, PREFER_NO_SCHEDULE or NO_EXECUTE."
  }
}

variable "disk" {
  description = "Boot disk of each node, and the local NVMe SSDs (375 GB each) that hold its ephemeral storage instead (emptyDirs, container images, Cloud Storage FUSE file caches) when local_ssd_count is set. Machine types that come with local SSDs (A2 Ultra, A3, A4) take exactly their own count. Changing local_ssd_count replaces the pool."
  type = object({
    size_gb         = number
    type            = optional(string, "pd-balanced")
    local_ssd_count = optional(number)
  })
  default = { size_gb = 200 }
}

variable "secondary_boot_disks" {
  description = "Disks GKE creates beside each node's boot disk from disk images (same type as the boot disk): mode CONTAINER_IMAGE_CACHE lets containerd start the images preloaded there without a pull; MODE_UNSPECIFIED only attaches the disk. Changing them replaces the pool."
  type = list(object({
    disk_image = string
    mode       = optional(string, "CONTAINER_IMAGE_CACHE")
  }))
  default = []

  validation {
    condition     = alltrue([for d in var.secondary_boot_disks : contains(["CONTAINER_IMAGE_CACHE", "MODE_UNSPECIFIED"], d.mode)])
    error_message = "secondary_boot_disks[].mode must be CONTAINER_IMAGE_CACHE or MODE_UNSPECIFIED (the GKE API's SecondaryBootDisk.Mode)."
  }
}

variable "additional_node_networks" {
  description = "Networks each node gets an extra interface on, in order (GPUDirect RDMA: one subnet of the RDMA network per GPU NIC). The cluster needs multi-networking. Changing them replaces the pool."
  type = list(object({
    network    = string
    subnetwork = string
  }))
  default = []
}

variable "image_type" {
  description = "Node image: COS_CONTAINERD or UBUNTU_CONTAINERD."
  type        = string
  default     = "COS_CONTAINERD"
}

variable "image_streaming" {
  description = "Stream container images (GCFS) so multi-GB model server images start sooner. COS only."
  type        = bool
  default     = true
}

variable "service_account" {
  description = "Email of the nodes' service account (the cluster module's node_service_account)."
  type        = string
}

variable "resource_labels" {
  description = "Labels on the node VMs."
  type        = map(string)
  default     = {}
}

variable "upgrade" {
  description = "Surge upgrade settings. The default needs no spare GPU: drain one node at a time. Not used by FLEX_START and QUEUED pools, which GKE upgrades with its SHORT_LIVED strategy."
  type = object({
    max_surge       = number
    max_unavailable = number
  })
  default = { max_surge = 0, max_unavailable = 1 }

  validation {
    condition     = var.upgrade.max_surge + var.upgrade.max_unavailable >= 1
    error_message = "upgrade needs max_surge + max_unavailable >= 1, or nodes can never be upgraded."
  }
}

variable "network_tags" {
  description = "Network tags of the nodes (the cluster module's node_tag, the target of its firewall rules)."
  type        = list(string)
  default     = []
}

variable "secure_boot" {
  description = "Shielded VM Secure Boot. Turn it off only where something other than GKE builds the NVIDIA kernel modules on the node (the GPU Operator's driver container): Secure Boot rejects unsigned modules."
  type        = bool
  default     = true
}

variable "auto_upgrade" {
  description = "Let GKE upgrade the nodes with the control plane."
  type        = bool
  default     = true
}
