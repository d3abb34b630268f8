# gpuplat module eks-cluster 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "name" {
  description = "Cluster name."
  type        = string

  validation {
    condition     = can(regex("^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$", var.name))
    error_message = "name must be 1-100 letters, digits, - and _, starting with a letter or digit."
  }
}

variable "kubernetes_version" {
  description = "Kubernetes version of the control plane, major.minor (EKS picks the patch). Default: 1.34."
  type        = string
  default     = "1.34"

  validation {
    condition     = can(regex("^1\\.[0-9]+$", var.kubernetes_version))
    error_message = "kubernetes_version must be major.minor, e.g. 1.34."
  }
}

variable "network" {
  description = "Private subnets for the control plane's network interfaces and the nodes, in at least two zones; vpc_id, when given, is checked against them."
  type = object({
    vpc_id     = optional(string)
    subnet_ids = list(string)
  })

  validation {
    condition     = length(var.network.subnet_ids) >= 2
    error_message = "network.subnet_ids needs at least two subnets (EKS needs two availability zones)."
  }

  validation {
    condition     = alltrue([for id in var.network.subnet_ids : can(regex("^subnet-[0-9a-f]+$", id))])
    error_message = "network.subnet_ids must be subnet ids (subnet-...)."
  }

  validation {
    condition     = var.network.vpc_id == null || can(regex("^vpc-[0-9a-f]+$", var.network.vpc_id))
    error_message = "network.vpc_id must be a VPC id (vpc-...)."
  }
}

variable "endpoint" {
  description = "Who reaches the Kubernetes API. The private endpoint (inside the VPC) is always on; public adds an internet endpoint, limited to public_cidrs. private_networks (CI runners, a VPN: networks inside the VPC or connected to it) may reach the private endpoint on 443."
  type = object({
    public       = optional(bool, true)
    public_cidrs = optional(list(string), ["0.0.0.0/0"])
    private_networks = optional(list(object({
      cidr        = string
      description = optional(string, "")
    })), [])
  })
  default = {}

  validation {
    condition     = alltrue([for c in var.endpoint.public_cidrs : can(cidrhost(c, 0))])
    error_message = "endpoint.public_cidrs must be IPv4 CIDRs."
  }

  validation {
    condition     = alltrue([for n in var.endpoint.private_networks : can(cidrhost(n.cidr, 0))])
    error_message = "endpoint.private_networks[].cidr must be IPv4 CIDRs."
  }
}

variable "admins" {
  description = "IAM principal ARNs (roles or users) given cluster-admin through access entries."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for arn in var.admins : can(regex("^arn:aws[a-z-]*:iam::[0-9]{12}:(role|user)/.+$", arn))])
    error_message = "admins must be IAM role or user ARNs (arn:aws:iam::123456789012:role/name)."
  }
}

variable "bootstrap_creator_admin" {
  description = "Give the identity that creates the cluster (e.g. the CI role running Terraform) cluster-admin, so later stages can reach the API. Changing it replaces the cluster."
  type        = bool
  default     = true
}

variable "secrets_kms_key_arn" {
  description = "KMS key (ARN) that envelope-encrypts Kubernetes secrets. Null: EKS's default encryption at rest."
  type        = string
  default     = null

  validation {
    condition     = var.secrets_kms_key_arn == null || can(regex("^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:(key|alias)/.+$", var.secrets_kms_key_arn))
    error_message = "secrets_kms_key_arn must be a KMS key or alias ARN."
  }
}

variable "logging" {
  description = "Control-plane log types sent to CloudWatch Logs, how long the log group keeps them, and an optional KMS key (ARN) that encrypts them."
  type = object({
    types          = optional(list(string), ["api", "audit", "authenticator"])
    retention_days = optional(number, 30)
    kms_key_arn    = optional(string)
  })
  default = {}

  validation {
    condition     = alltrue([for t in var.logging.types : contains(["api", "audit", "authenticator", "controllerManager", "scheduler"], t)])
    error_message = "logging.types must be among api, audit, authenticator, controllerManager and scheduler."
  }

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653], var.logging.retention_days)
    error_message = "logging.retention_days must be a CloudWatch Logs retention, e.g. 7, 30, 90 or 365."
  }
}

variable "addons" {
  description = "EKS managed add-ons by name, each with an optional version (null: resolved for kubernetes_version, see addons_most_recent, and moved with it when the minor goes up) and configuration JSON. CoreDNS is installed after the system node group; the others before any node."
  type = map(object({
    version       = optional(string)
    configuration = optional(string)
  }))
  default = {
    coredns                = {}
    eks-pod-identity-agent = {}
    kube-proxy             = {}
    vpc-cni                = {}
  }

  validation {
    condition     = alltrue([for a in values(var.addons) : a.configuration == null || can(jsondecode(a.configuration))])
    error_message = "each add-on's configuration must be JSON."
  }
}

variable "addons_most_recent" {
  description = "For add-ons without a version: true takes the newest version EKS publishes for kubernetes_version (a plan shows an update when a newer one is published), false EKS's default version for that minor (it moves only when the minor does)."
  type        = bool
  default     = true
}

variable "system_pool" {
  description = "The CPU node group for system pods (CoreDNS, the autoscaler, KEDA, ...), so GPU node groups can scale to zero."
  type = object({
    instance_type = optional(string, "m6i.large")
    ami_type      = optional(string, "AL2023_x86_64_STANDARD")
    min_nodes     = optional(number, 1)
    max_nodes     = optional(number, 3)
    disk_size_gb  = optional(number, 50)
  })
  default = {}

  validation {
    condition     = var.system_pool.min_nodes >= 0 && var.system_pool.min_nodes <= var.system_pool.max_nodes && var.system_pool.max_nodes >= 1
    error_message = "system_pool needs 0 <= min_nodes <= max_nodes and max_nodes >= 1."
  }

  validation {
    condition     = contains(["AL2023_x86_64_STANDARD", "AL2023_ARM_64_STANDARD", "BOTTLEROCKET_x86_64", "BOTTLEROCKET_ARM_64"], var.system_pool.ami_type)
    error_message = "system_pool.ami_type must be AL2023_x86_64_STANDARD, AL2023_ARM_64_STANDARD, BOTTLEROCKET_x86_64 or BOTTLEROCKET_ARM_64."
  }

  validation {
    condition     = var.system_pool.disk_size_gb >= 20
    error_message = "system_pool.disk_size_gb must be at least 20."
  }
}

variable "cluster_autoscaler" {
  description = "An IAM role for the Kubernetes cluster autoscaler, bound to its service account through EKS Pod Identity: it may resize only this cluster's node groups."
  type = object({
    enabled         = optional(bool, true)
    namespace       = optional(string, "kube-system")
    service_account = optional(string, "cluster-autoscaler")
  })
  default = {}
}

variable "cni_pod_identity" {
  description = "Give the VPC CNI (aws-node) its own IAM role through Pod Identity instead of putting AmazonEKS_CNI_Policy on the node role, which every pod on a node could otherwise use. Needs the eks-pod-identity-agent add-on."
  type        = bool
  default     = true
}

variable "ssm_access" {
  description = "Attach AmazonSSMManagedInstanceCore to the node role, so nodes can be reached with Session Manager."
  type        = bool
  default     = false
}

variable "workload_identities" {
  description = "Workloads that read model weights from S3, by name: the namespace and service account of their pods, bound through Pod Identity to a role that may read exactly these bucket prefixes (prefix \"\": the whole bucket)."
  type = map(object({
    namespace       = string
    service_account = string
    s3_read = list(object({
      bucket = string
      prefix = optional(string, "")
    }))
  }))
  default = {}

  validation {
    condition     = alltrue([for w in values(var.workload_identities) : length(w.s3_read) >= 1 && alltrue([for r in w.s3_read : can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", r.bucket)) && !startswith(r.prefix, "/") && !endswith(r.prefix, "/")])])
    error_message = "each workload identity needs at least one s3_read entry with an S3 bucket name and a prefix without leading or trailing /."
  }
}

variable "timeouts" {
  description = "How long Terraform waits for the cluster and the system node group to be created, updated or deleted."
  type = object({
    create = optional(string, "30m")
    update = optional(string, "60m")
    delete = optional(string, "15m")
  })
  default = {}
}

variable "tags" {
  description = "Tags on every resource, and on the system nodes' instances and volumes."
  type        = map(string)
  default     = {}
}

variable "efa_security_group" {
  description = "Create the cluster's one EFA security group (all traffic from and to itself), which every EFA node group puts on its EFA interfaces: output efa_security_group_id."
  type        = bool
  default     = false
}
