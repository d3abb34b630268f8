# gpuplat module eks-gpu-node-group 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "cluster_name" {
  description = "Name of the EKS cluster the node group joins."
  type        = string
}

variable "name" {
  description = "Node group name, unique in the cluster."
  type        = string

  validation {
    condition     = can(regex("^[0-9A-Za-z][A-Za-z0-9_-]{0,62}$", var.name))
    error_message = "name must be 1-63 letters, digits, - and _, starting with a letter or digit."
  }
}

variable "kubernetes_version" {
  description = "Kubernetes version of the nodes (the cluster module's kubernetes_version), so a control-plane upgrade rolls the nodes too, one at a time. Null: the cluster's version when the node group is created."
  type        = string
  default     = null
}

variable "node_role_arn" {
  description = "IAM role of the nodes (the cluster module's node_role_arn)."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets the nodes go in; their zones are the node group's zones."
  type        = list(string)

  validation {
    condition     = length(var.subnet_ids) >= 1
    error_message = "subnet_ids needs at least one subnet."
  }
}

variable "instance_type" {
  description = "EC2 instance type, e.g. g6.xlarge or p5.48xlarge."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", var.instance_type))
    error_message = "instance_type must be an EC2 instance type such as g6.xlarge."
  }
}

variable "extra_instance_types" {
  description = "More instance types with the same GPUs (spot node groups take whichever has capacity). The autoscaler builds its scale-from-zero template from instance_type, so none may be smaller."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for t in var.extra_instance_types : can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", t))])
    error_message = "extra_instance_types must be EC2 instance types such as g6.xlarge."
  }
}

variable "ami_type" {
  description = "EKS AMI type. The NVIDIA types ship the driver and container toolkit; the STANDARD types are for the GPU Operator installing the driver itself."
  type        = string
  default     = "AL2023_x86_64_NVIDIA"

  validation {
    condition = contains([
      "AL2023_x86_64_NVIDIA", "AL2023_ARM_64_NVIDIA",
      "BOTTLEROCKET_x86_64_NVIDIA", "BOTTLEROCKET_ARM_64_NVIDIA",
      "AL2023_x86_64_STANDARD", "AL2023_ARM_64_STANDARD",
    ], var.ami_type)
    error_message = "ami_type must be AL2023_x86_64_NVIDIA, AL2023_ARM_64_NVIDIA, BOTTLEROCKET_x86_64_NVIDIA, BOTTLEROCKET_ARM_64_NVIDIA, AL2023_x86_64_STANDARD or AL2023_ARM_64_STANDARD."
  }
}

variable "gpus_per_node" {
  description = "Physical GPUs per node."
  type        = number

  validation {
    condition     = var.gpus_per_node >= 1
    error_message = "gpus_per_node must be at least 1."
  }
}

variable "advertised_gpus" {
  description = "nvidia.com/gpu units one node advertises (GPUs times time-slicing or MPS clients, or MIG instances), for the autoscaler's scale-from-zero template. 0: none (DRA). Null: gpus_per_node."
  type        = number
  default     = null

  validation {
    condition     = var.advertised_gpus == null || try(var.advertised_gpus >= 0, false)
    error_message = "advertised_gpus must be 0 or more."
  }
}

variable "template_resources" {
  description = "Resources one node offers pods besides GPUs and EFA devices (e.g. ephemeral-storage = \"170Gi\": the disk less the kubelet's reserve), written as cluster-autoscaler node-template tags so a pod requesting them can scale the group from zero."
  type        = map(string)
  default     = {}
}

variable "bottlerocket_time_slicing" {
  description = "Bottlerocket only: nvidia.com/gpu replicas per GPU through Bottlerocket's own device plugin (settings.kubelet-device-plugins.nvidia, in user data). Null: whole GPUs."
  type        = number
  default     = null

  validation {
    condition     = var.bottlerocket_time_slicing == null || try(var.bottlerocket_time_slicing >= 2, false)
    error_message = "bottlerocket_time_slicing must be 2 or more (or null)."
  }
}

variable "capacity" {
  description = "Where the GPUs come from: ON_DEMAND (optionally from a capacity reservation), SPOT, or CAPACITY_BLOCK (an EC2 Capacity Block for ML, reservation_id required)."
  type = object({
    type           = optional(string, "ON_DEMAND")
    reservation_id = optional(string)
  })
  default = {}

  validation {
    condition     = contains(["ON_DEMAND", "SPOT", "CAPACITY_BLOCK"], var.capacity.type)
    error_message = "capacity.type must be ON_DEMAND, SPOT or CAPACITY_BLOCK."
  }

  validation {
    condition     = var.capacity.type != "CAPACITY_BLOCK" || var.capacity.reservation_id != null
    error_message = "a CAPACITY_BLOCK node group needs capacity.reservation_id (cr-...)."
  }

  validation {
    condition     = var.capacity.type != "SPOT" || var.capacity.reservation_id == null
    error_message = "spot capacity cannot consume a capacity reservation."
  }

  validation {
    condition     = var.capacity.reservation_id == null || can(regex("^cr-[0-9a-f]{8,17}$", var.capacity.reservation_id))
    error_message = "capacity.reservation_id must be a capacity reservation id (cr- and 8 to 17 hex digits)."
  }
}

variable "scaling" {
  description = "Node bounds; min_nodes 0 lets the node group cost nothing while idle. The autoscaler sets the desired size."
  type = object({
    min_nodes = number
    max_nodes = number
  })

  validation {
    condition     = var.scaling.min_nodes >= 0 && var.scaling.min_nodes <= var.scaling.max_nodes && var.scaling.max_nodes >= 1
    error_message = "scaling needs 0 <= min_nodes <= max_nodes and max_nodes >= 1."
  }
}

variable "disk" {
  description = "Boot (Bottlerocket: data) volume of each node, where images and copied weights live. gp3 defaults to 3000 IOPS and 500 MiB/s, so loading weights is not capped at gp3's base 125 MiB/s."
  type = object({
    size_gb    = optional(number, 200)
    type       = optional(string, "gp3")
    iops       = optional(number)
    throughput = optional(number)
  })
  default = {}

  validation {
    condition     = contains(["gp2", "gp3", "io1", "io2"], var.disk.type)
    error_message = "disk.type must be gp2, gp3, io1 or io2."
  }

  validation {
    condition     = var.disk.size_gb >= 20 && var.disk.size_gb <= 16384
    error_message = "disk.size_gb must be 20 to 16384."
  }

  validation {
    condition     = var.disk.throughput == null || var.disk.type == "gp3"
    error_message = "disk.throughput is a gp3 setting."
  }
}

variable "labels" {
  description = "Kubernetes labels on the nodes (also written as autoscaler node-template tags)."
  type        = map(string)
  default     = {}
}

variable "taints" {
  description = "Extra Kubernetes taints. nvidia.com/gpu=present:NO_SCHEDULE is always added."
  type = list(object({
    key    = string
    value  = optional(string, "")
    effect = string
  }))
  default = []

  validation {
    condition     = alltrue([for t in var.taints : contains(["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE"], t.effect)])
    error_message = "taint effects must be NO_SCHEDULE, PREFER_NO_SCHEDULE or NO_EXECUTE."
  }
}

variable "efa" {
  description = "Elastic Fabric Adapter interfaces (one per network card, up to the instance's EFA count), in an EFA security group that lets the nodes reach each other: with own_security_group false, security_group_id, the cluster's shared one (eks-cluster efa_security_group_id); else (the default) a group of this node group's own created in vpc_id; security_group_ids must include the cluster security group. efa_only: the cards after the first get EFA-only interfaces, which take no VPC address. Null: no EFA."
  type = object({
    interfaces         = number
    vpc_id             = optional(string)
    own_security_group = optional(bool, true)
    security_group_id  = optional(string)
    security_group_ids = list(string)
    efa_only           = optional(bool, true)
  })
  default = null

  validation {
    condition     = var.efa == null || try(var.efa.interfaces >= 1 && var.efa.interfaces <= 32, false)
    error_message = "efa.interfaces must be 1 to 32."
  }

  validation {
    condition     = var.efa == null || try(var.efa.own_security_group ? var.efa.vpc_id != null : var.efa.security_group_id != null, false)
    error_message = "efa needs vpc_id to create the node group's own EFA security group, or own_security_group = false and security_group_id (the cluster's EFA security group)."
  }
}

variable "compact_placement" {
  description = "Launch the nodes in a cluster placement group (close together, one zone) for low-latency GPU-to-GPU traffic."
  type        = bool
  default     = false
}

variable "max_unavailable" {
  description = "Old nodes drained at once during an update. EKS launches the new nodes first (up to twice the group's zones, or this many if larger), so an update needs spare GPU capacity; a node not drained in 15 minutes fails it (PodEvictionFailure)."
  type        = number
  default     = 1

  validation {
    condition     = var.max_unavailable >= 1
    error_message = "max_unavailable must be at least 1."
  }
}

variable "timeouts" {
  description = "How long Terraform waits for the node group to be created, updated or deleted."
  type = object({
    create = optional(string, "60m")
    update = optional(string, "60m")
    delete = optional(string, "60m")
  })
  default = {}
}

variable "tags" {
  description = "Tags on the node group, its launch template and the instances and volumes it launches."
  type        = map(string)
  default     = {}
}
