# gpuplat module aks-cluster 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "name" {
  description = "Cluster name."
  type        = string

  validation {
    condition     = can(regex("^[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$", var.name))
    error_message = "name must be 1-63 letters, digits, - and _, starting and ending with a letter or digit."
  }
}

variable "resource_group_name" {
  description = "Existing resource group that holds the cluster."
  type        = string
}

variable "location" {
  description = "Azure region, e.g. eastus."
  type        = string
}

variable "kubernetes_version" {
  description = "Kubernetes version of the control plane, e.g. 1.34 (AKS picks the patch). Null: AKS's default when the cluster is created."
  type        = string
  default     = null

  validation {
    condition     = var.kubernetes_version == null || can(regex("^1\\.[0-9]+(\\.[0-9]+)?$", var.kubernetes_version))
    error_message = "kubernetes_version must be major.minor or major.minor.patch, e.g. 1.34."
  }
}

variable "sku_tier" {
  description = "Control-plane tier: Free (no SLA, what gpuplat's cost model prices), Standard or Premium."
  type        = string
  default     = "Free"

  validation {
    condition     = contains(["Free", "Standard", "Premium"], var.sku_tier)
    error_message = "sku_tier must be Free, Standard or Premium."
  }
}

variable "network" {
  description = "Node subnet (null: a virtual network AKS creates), private cluster (API reachable only inside the network), authorized API ranges, and the overlay's pod range (null: AKS's default)."
  type = object({
    subnet_id            = optional(string)
    private_cluster      = optional(bool, false)
    authorized_ip_ranges = optional(list(string), [])
    pod_cidr             = optional(string)
  })
  default = {}

  validation {
    condition     = alltrue([for c in var.network.authorized_ip_ranges : can(cidrhost(c, 0))])
    error_message = "network.authorized_ip_ranges must be IPv4 CIDRs."
  }

  validation {
    condition     = !var.network.private_cluster || length(var.network.authorized_ip_ranges) == 0
    error_message = "authorized_ip_ranges limit the public endpoint, which a private cluster does not have."
  }
}

variable "entra" {
  description = "Microsoft Entra authentication: groups given cluster-admin, and whether Azure roles (instead of Kubernetes RBAC bindings) authorize requests."
  type = object({
    admin_group_object_ids = optional(list(string), [])
    azure_rbac_enabled     = optional(bool, true)
  })
  default = {}
}

variable "deployer_admin" {
  description = "Give the identity that applies this module the Azure Kubernetes Service RBAC Cluster Admin role on the cluster, so Kubernetes and Helm runs that sign in as it (kubelogin) are authorized. Needs entra.azure_rbac_enabled, and Owner or User Access Administrator to write the assignment."
  type        = bool
  default     = true
}

variable "reservation_group_ids" {
  description = "Capacity reservation groups the cluster's pools draw from. Non-empty: the control plane gets a user-assigned identity with Contributor on each group's resource group, which AKS needs to place nodes in a reservation (a system-assigned identity does not work)."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for g in var.reservation_group_ids : can(regex("(?i)^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\\.Compute/capacityReservationGroups/[^/]+$", g))])
    error_message = "reservation_group_ids must be resource ids of capacity reservation groups."
  }
}

variable "local_account_disabled" {
  description = "Turn off the cluster's local (certificate) accounts, so every access is a revocable Entra identity."
  type        = bool
  default     = true
}

variable "system_pool" {
  description = "The CPU default node pool for system pods (CoreDNS, KEDA, the device plugin's controllers), so GPU pools can scale to zero. AKS needs at least one node in it."
  type = object({
    vm_size      = optional(string, "Standard_D4s_v5")
    min_nodes    = optional(number, 1)
    max_nodes    = optional(number, 3)
    disk_size_gb = optional(number, 128)
    zones        = optional(list(string), [])
  })
  default = {}

  validation {
    condition     = var.system_pool.min_nodes >= 1 && var.system_pool.min_nodes <= var.system_pool.max_nodes
    error_message = "system_pool needs 1 <= min_nodes <= max_nodes."
  }

  validation {
    condition     = alltrue([for z in var.system_pool.zones : contains(["1", "2", "3"], z)])
    error_message = "system_pool.zones must be among 1, 2 and 3."
  }
}

variable "system_max_pods" {
  description = "Pods per system node (Azure CNI overlay: pod addresses come from the overlay, not the subnet). A variable of its own so that scanners read its value."
  type        = number
  default     = 110

  validation {
    condition     = var.system_max_pods >= 10 && var.system_max_pods <= 250
    error_message = "system_max_pods must be between 10 and 250 (AKS limits)."
  }
}

variable "autoscaler" {
  description = "Cluster autoscaler profile: how it picks among pools that fit a pending pod (least-waste, priority, most-pods, random), and timings for GPU nodes that take minutes to be ready."
  type = object({
    expander                   = optional(string, "least-waste")
    max_node_provisioning_time = optional(string, "25m")
    scale_down_delay_after_add = optional(string, "10m")
    scale_down_unneeded        = optional(string, "10m")
  })
  default = {}

  validation {
    condition     = contains(["least-waste", "priority", "most-pods", "random"], var.autoscaler.expander)
    error_message = "autoscaler.expander must be least-waste, priority, most-pods or random."
  }
}

variable "upgrades" {
  description = "Automatic upgrade channels: the control plane's (patch: newest patch of the minor version) and the nodes' OS (NodeImage)."
  type = object({
    channel         = optional(string, "patch")
    node_os_channel = optional(string, "NodeImage")
  })
  default = {}

  validation {
    condition     = contains(["patch", "rapid", "node-image", "stable"], var.upgrades.channel)
    error_message = "upgrades.channel must be patch, rapid, node-image or stable."
  }

  validation {
    condition     = contains(["None", "Unmanaged", "SecurityPatch", "NodeImage"], var.upgrades.node_os_channel)
    error_message = "upgrades.node_os_channel must be None, Unmanaged, SecurityPatch or NodeImage."
  }
}

variable "maintenance" {
  description = "Weekly window for automatic upgrades of the control plane and node images."
  type = object({
    day_of_week    = optional(string, "Sunday")
    start_time     = optional(string, "02:00")
    utc_offset     = optional(string, "+00:00")
    duration_hours = optional(number, 4)
  })
  default = {}

  validation {
    condition     = var.maintenance.duration_hours >= 4 && var.maintenance.duration_hours <= 24
    error_message = "maintenance.duration_hours must be 4 to 24 (AKS's minimum is 4)."
  }
}

variable "blob_driver" {
  description = "Enable the Azure Blob CSI driver (blobfuse2 mounts of model weights)."
  type        = bool
  default     = true
}

variable "node_provisioning_mode" {
  description = "Node auto-provisioning (Auto or Manual). Null: off; the GPU pools are declared node pools."
  type        = string
  default     = null

  validation {
    condition     = var.node_provisioning_mode == null || contains(["Auto", "Manual"], coalesce(var.node_provisioning_mode, "Manual"))
    error_message = "node_provisioning_mode must be Auto, Manual or null."
  }
}

variable "managed_prometheus" {
  description = "Turn on the ama-metrics add-on of Azure Monitor managed Prometheus (monitor_metrics); connect it to a workspace with a data collection rule association (aks-managed-prometheus)."
  type        = bool
  default     = false
}

variable "azure_policy_enabled" {
  description = "Install the Azure Policy add-on (Gatekeeper) to enforce the organisation's policy assignments."
  type        = bool
  default     = false
}

variable "disk_encryption_set_id" {
  description = "Disk encryption set (customer-managed key) for the nodes' disks. Null: platform-managed keys."
  type        = string
  default     = null
}

variable "host_encryption_enabled" {
  description = "Encrypt temporary disks and caches at the host (needs the EncryptionAtHost feature on the subscription)."
  type        = bool
  default     = false
}

variable "tags" {
  description = "Tags on the cluster and the system pool's nodes."
  type        = map(string)
  default     = { managed-by = "gpuplat" }
}
