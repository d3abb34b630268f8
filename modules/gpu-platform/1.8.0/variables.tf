# gpuplat module gpu-platform 1.8.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "cloud" {
  description = "gke, eks or aks: where the cluster runs (driver and toolkit locations differ)."
  type        = string

  validation {
    condition     = contains(["gke", "eks", "aks"], var.cloud)
    error_message = "cloud must be gke, eks or aks."
  }
}

variable "device_plugin" {
  description = "How pods get GPUs: managed (the cloud's), nvidia-device-plugin, gpu-operator or dra."
  type        = string

  validation {
    condition     = contains(["managed", "nvidia-device-plugin", "gpu-operator", "dra"], var.device_plugin)
    error_message = "device_plugin must be managed, nvidia-device-plugin, gpu-operator or dra."
  }
}

variable "sharing" {
  description = "Per node pool time-slicing or MPS configs; nodes select theirs with the nvidia.com/device-plugin.config label."
  type = list(object({
    name     = string
    mode     = string
    replicas = number
  }))
  default = []

  validation {
    condition     = alltrue([for s in var.sharing : contains(["time-slicing", "mps"], s.mode) && s.replicas >= 2])
    error_message = "each sharing config needs mode time-slicing or mps and at least 2 replicas."
  }
}

variable "gpu_pools" {
  description = "Names of the cluster's GPU pools (their gpuplat.dev/pool label): where the DCGM exporter runs."
  type        = list(string)
  default     = []
}

variable "plugin_pools" {
  description = "GPU pools the NVIDIA device plugin chart serves: all but those whose node image runs its own plugin (Bottlerocket). Empty: the chart is not installed."
  type        = list(string)
  default     = []
}

variable "pool_tolerations" {
  description = "Taints of the GPU pools besides nvidia.com/gpu (key and effect); every GPU daemonset tolerates them."
  type = list(object({
    key    = string
    effect = string
  }))
  default = []

  validation {
    condition     = alltrue([for t in var.pool_tolerations : contains(["NoSchedule", "PreferNoSchedule", "NoExecute"], t.effect)])
    error_message = "pool_tolerations effects must be NoSchedule, PreferNoSchedule or NoExecute."
  }
}

variable "efa_device_plugin" {
  description = "EKS: install the AWS EFA device plugin (a pool has EFA interfaces)."
  type        = bool
  default     = false
}

variable "network_operator" {
  description = "AKS: install the NVIDIA Network Operator (a pool has InfiniBand); charts must pin network-operator."
  type        = bool
  default     = false
}

variable "gpudirect_rdma" {
  description = "AKS InfiniBand with the GPU Operator's driver: the driver container also loads nvidia-peermem (the GPU Operator's driver.rdma), so NCCL reads and writes GPU memory over the HCAs directly. The DOCA driver is the Network Operator's container, not the host's (useHostMofed false)."
  type        = bool
  default     = false
}

variable "mig_strategy" {
  description = "MIG strategy of the GPU Operator (single: one profile per node), or null without MIG."
  type        = string
  default     = null
}

variable "operator_driver" {
  description = "Let the GPU Operator install the NVIDIA driver (for node images that ship none)."
  type        = bool
  default     = false
}

variable "gke_host_paths" {
  description = "Use GKE COS host paths for the driver and container toolkit."
  type        = bool
  default     = false
}

variable "dcgm" {
  description = "GPU metrics: chart (DCGM exporter chart), operator (the operator's exporter), managed (the cloud's) or off."
  type        = string
  default     = "chart"

  validation {
    condition     = contains(["chart", "operator", "managed", "off"], var.dcgm)
    error_message = "dcgm must be chart, operator, managed or off."
  }
}

variable "keda" {
  description = "KEDA, and its HTTP add-on whose interceptor holds requests while a scaled-to-zero server starts."
  type = object({
    enabled              = bool
    http_add_on          = optional(bool, false)
    wait_timeout_seconds = optional(number, 20)
    # AKS: KEDA's operator signs in with Azure workload identity (its pods and service account
    # get azure.workload.identity/use), e.g. to query Azure Monitor managed Prometheus.
    azure_workload_identity = optional(bool, false)
  })
  default = { enabled = false }
}

variable "prometheus" {
  description = "Install an in-cluster Prometheus (kube-prometheus-stack, release kube-prometheus-stack in namespace monitoring) that scrapes only the pods PodMonitors select: the model servers whose gauges KEDA's prometheus triggers query."
  type        = bool
  default     = false
}

variable "kueue" {
  description = "Install Kueue (quotas and all-or-nothing admission)."
  type        = bool
  default     = false
}

variable "leader_worker_set" {
  description = "Install LeaderWorkerSet (multi-host model servers)."
  type        = bool
  default     = false
}

variable "cluster_autoscaler" {
  description = "EKS: the Kubernetes cluster autoscaler, finding the node groups by their tags; its IAM role is bound to its service account by the eks-cluster module (Pod Identity). priorities (priority, a whole number -> regular expressions of node group names: Auto Scaling groups on EKS, scale sets on AKS) are the priority expander's, for capacity ladders; every group must match one, or it is never scaled up. With enabled, the chart turns the expander on and writes its ConfigMap; without (AKS, whose autoscaler the cloud runs and switches to the priority expander itself), the module writes the cluster-autoscaler-priority-expander ConfigMap in kube-system."
  type = object({
    enabled         = bool
    cluster_name    = optional(string, "")
    region          = optional(string, "")
    namespace       = optional(string, "kube-system")
    service_account = optional(string, "cluster-autoscaler")
    priorities      = optional(map(list(string)), {})
  })
  default = { enabled = false }

  validation {
    condition     = !var.cluster_autoscaler.enabled || (var.cluster_autoscaler.cluster_name != "" && var.cluster_autoscaler.region != "")
    error_message = "cluster_autoscaler needs cluster_name and region when enabled."
  }

  validation {
    condition     = alltrue([for k in keys(var.cluster_autoscaler.priorities) : can(regex("^[1-9][0-9]{0,7}$", k))])
    error_message = "cluster_autoscaler.priorities keys are whole numbers from 1 (the autoscaler reads them as integers)."
  }
}

variable "compute_classes" {
  description = "GKE: custom ComputeClasses (cloud.google.com/v1 objects) of the cluster's capacity ladders. GKE ships the ComputeClass CRD (1.30.3-gke.1451000 and later), so they are planned as soon as the cluster exists."
  type        = any
  default     = []

  validation {
    condition     = alltrue([for c in var.compute_classes : c.apiVersion == "cloud.google.com/v1" && c.kind == "ComputeClass"])
    error_message = "compute_classes holds ComputeClass objects (apiVersion cloud.google.com/v1)."
  }
}

variable "gpudirect" {
  description = "GKE GPUDirect: a Kubernetes Network (and GKENetworkParamSet, device mode RDMA, or NetDevice for tcpxo) per GPU subnet (name, VPC, subnet), and on nodes of these GKE accelerators the installer DaemonSet (image, and the pause image it sleeps in): type rdma, gIB's; type tcpxo, the TCPXO NCCL plugin's (its first init container runs in tools_image) and the NRI device injector (nri_image). Null: none."
  type = object({
    type            = optional(string, "rdma")
    networks        = list(object({ name = string, vpc = string, subnet = string }))
    accelerators    = list(string)
    installer_image = string
    pause_image     = string
    nri_image       = optional(string)
    tools_image     = optional(string)
  })
  default = null

  validation {
    condition     = var.gpudirect == null ? true : length(var.gpudirect.networks) > 0 && length(var.gpudirect.accelerators) > 0
    error_message = "gpudirect needs at least one network and one accelerator."
  }

  validation {
    condition     = var.gpudirect == null ? true : contains(["rdma", "tcpxo"], var.gpudirect.type) && (var.gpudirect.type == "rdma" || (var.gpudirect.nri_image != null && var.gpudirect.tools_image != null))
    error_message = "gpudirect.type is rdma or tcpxo; tcpxo needs nri_image and tools_image."
  }
}

variable "charts" {
  description = "Pinned Helm charts by component: repository, chart and exact version."
  type = map(object({
    repository = string
    chart      = string
    version    = string
  }))
}
