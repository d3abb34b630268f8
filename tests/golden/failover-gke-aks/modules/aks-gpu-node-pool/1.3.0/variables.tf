# gpuplat module aks-gpu-node-pool 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "kubernetes_cluster_id" {
  description = "Resource id of the AKS cluster the pool joins (the cluster module's id)."
  type        = string
}

variable "orchestrator_version" {
  description = "Kubernetes version of the nodes (the cluster module's kubernetes_version), so a control-plane upgrade reaches the pool too. Null: the cluster's version when the pool is created."
  type        = string
  default     = null
}

variable "vnet_subnet_id" {
  description = "Subnet of the nodes (the cluster module's node_subnet_id). Null: the virtual network AKS created."
  type        = string
  default     = null
}

variable "name" {
  description = "Pool name, unique in the cluster."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9]{0,11}$", var.name)) && var.name != "system"
    error_message = "name must be 1-12 lowercase letters and digits, starting with a letter, and not system."
  }
}

variable "vm_size" {
  description = "Azure VM size, e.g. Standard_NC24ads_A100_v4."
  type        = string

  validation {
    condition     = can(regex("^Standard_[A-Za-z0-9_]+$", var.vm_size))
    error_message = "vm_size must be an Azure VM size such as Standard_NC24ads_A100_v4."
  }
}

variable "gpus_per_node" {
  description = "Physical GPUs per node (for the outputs; the VM size decides)."
  type        = number

  validation {
    condition     = var.gpus_per_node >= 1
    error_message = "gpus_per_node must be at least 1."
  }
}

variable "advertised_gpus" {
  description = "nvidia.com/gpu one node advertises to pods: MIG instances, or time-sliced replicas, of all its GPUs. Null: gpus_per_node. Written as the cluster autoscaler's node-template tag, which is what it reads at zero nodes."
  type        = number
  default     = null

  validation {
    condition     = var.advertised_gpus == null || coalesce(var.advertised_gpus, 1) >= 1
    error_message = "advertised_gpus must be at least 1."
  }
}

variable "template_resources" {
  description = "Extended resources one node offers pods besides nvidia.com/gpu (e.g. \"rdma/ib\" = \"63\" on an InfiniBand pool, advertised by the RDMA shared device plugin), written as cluster-autoscaler node-template tags so a pod requesting them can scale the pool from zero."
  type        = map(string)
  default     = {}
}

variable "gpu_driver" {
  description = "Install: AKS installs the NVIDIA driver. None: something else does (the GPU Operator)."
  type        = string
  default     = "Install"

  validation {
    condition     = contains(["Install", "None"], var.gpu_driver)
    error_message = "gpu_driver must be Install or None."
  }
}

variable "gpu_instance" {
  description = "MIG profile AKS partitions every GPU into (MIG1g, MIG2g, MIG3g, MIG4g or MIG7g). Null: no MIG."
  type        = string
  default     = null

  validation {
    condition     = var.gpu_instance == null || contains(["MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"], coalesce(var.gpu_instance, "MIG1g"))
    error_message = "gpu_instance must be MIG1g, MIG2g, MIG3g, MIG4g, MIG7g or null."
  }
}

variable "os_sku" {
  description = "Node OS: Ubuntu or AzureLinux."
  type        = string
  default     = "Ubuntu"

  validation {
    condition     = contains(["Ubuntu", "AzureLinux"], var.os_sku)
    error_message = "os_sku must be Ubuntu or AzureLinux."
  }
}

variable "capacity" {
  description = "Where the GPUs come from: Regular (optionally from a capacity reservation group) or Spot (evicted and deleted when Azure needs the capacity, or above spot_max_price; -1: the on-demand price)."
  type = object({
    priority                      = optional(string, "Regular")
    spot_max_price                = optional(number, -1)
    capacity_reservation_group_id = optional(string)
  })
  default = {}

  validation {
    condition     = contains(["Regular", "Spot"], var.capacity.priority)
    error_message = "capacity.priority must be Regular or Spot."
  }

  validation {
    condition     = var.capacity.priority != "Spot" || var.capacity.capacity_reservation_group_id == null
    error_message = "a Spot pool cannot draw from a capacity reservation group."
  }

  validation {
    condition     = var.capacity.spot_max_price == -1 || var.capacity.spot_max_price > 0
    error_message = "capacity.spot_max_price must be -1 or a price above 0."
  }
}

variable "zones" {
  description = "Availability zones of the nodes (1, 2, 3). Empty: no zones (regions without them)."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for z in var.zones : contains(["1", "2", "3"], z)])
    error_message = "zones must be among 1, 2 and 3."
  }
}

variable "scaling" {
  description = "Node bounds; min_nodes 0 lets the pool cost nothing while idle. The autoscaler sets the node count."
  type = object({
    min_nodes = number
    max_nodes = number
  })

  validation {
    condition     = var.scaling.min_nodes >= 0 && var.scaling.min_nodes <= var.scaling.max_nodes && var.scaling.max_nodes >= 1
    error_message = "scaling needs 0 <= min_nodes <= max_nodes and max_nodes >= 1."
  }
}

variable "max_pods" {
  description = "Pods per node. Every slot reserves kubelet memory (20 MB each), so it is kept near what a GPU node runs."
  type        = number
  default     = 110

  validation {
    condition     = var.max_pods >= 50 && var.max_pods <= 250
    error_message = "max_pods must be 50 to 250."
  }
}

variable "labels" {
  description = "Kubernetes labels on the nodes."
  type        = map(string)
  default     = {}
}

variable "taints" {
  description = "Extra Kubernetes taints. nvidia.com/gpu=present:NoSchedule is always added, and kubernetes.azure.com/scalesetpriority=spot:NoSchedule on Spot pools."
  type = list(object({
    key    = string
    value  = string
    effect = string
  }))
  default = []

  validation {
    condition     = alltrue([for t in var.taints : contains(["NoSchedule", "PreferNoSchedule", "NoExecute"], t.effect)])
    error_message = "taint effects must be NoSchedule, PreferNoSchedule or NoExecute."
  }
}

variable "disk" {
  description = "OS disk of each node, where images and copied weights live: Managed, or Ephemeral on the VM's temporary disk (faster, must fit it)."
  type = object({
    size_gb = optional(number, 200)
    type    = optional(string, "Managed")
  })
  default = {}

  validation {
    condition     = contains(["Managed", "Ephemeral"], var.disk.type)
    error_message = "disk.type must be Managed or Ephemeral."
  }

  validation {
    condition     = var.disk.size_gb >= 30 && var.disk.size_gb <= 4096
    error_message = "disk.size_gb must be 30 to 4096."
  }
}

variable "upgrade" {
  description = "Node upgrades of regular pools: exactly one of max_surge or max_unavailable (azurerm sends the other as 0). The default needs no spare GPU: drain one node at a time, with no surge node."
  type = object({
    max_surge                = optional(string)
    max_unavailable          = optional(string)
    drain_timeout_in_minutes = optional(number, 30)
  })
  default = { max_unavailable = "1" }

  validation {
    condition     = (var.upgrade.max_surge == null) != (var.upgrade.max_unavailable == null)
    error_message = "upgrade takes exactly one of max_surge and max_unavailable: azurerm refuses both (ConflictsWith) and a regular pool with neither."
  }
}

variable "host_encryption_enabled" {
  description = "Encrypt temporary disks and caches at the host (needs the EncryptionAtHost feature on the subscription)."
  type        = bool
  default     = false
}

variable "tags" {
  description = "Tags on the pool's scale set and VMs."
  type        = map(string)
  default     = { managed-by = "gpuplat" }
}
