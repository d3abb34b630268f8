# gpuplat module gpu-platform 1.8.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Helm values are built here from typed inputs and handed to the charts with yamlencode.
# Conditional parts are merged in as separate objects: a conditional between two objects of
# different shapes would make Terraform convert them to a map of strings (true -> "true").
locals {
  # GPU daemonsets must run on every GPU node: they tolerate the nvidia.com/gpu taint and every
  # other taint of the pools they serve (a pool's extra taint would otherwise leave its nodes
  # without a device plugin, and so without nvidia.com/gpu).
  gpu_tolerations = concat(
    [{ key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule" }],
    [for t in var.pool_tolerations : { key = t.key, operator = "Exists", effect = t.effect }],
  )
  # Only on the GPU pools (named by their gpuplat.dev/pool label): DCGM on a CPU node has no GPU
  # to read and crash-loops.
  gpu_pool_affinity = {
    nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution = {
        nodeSelectorTerms = [{ matchExpressions = [{ key = "gpuplat.dev/pool", operator = "In", values = var.gpu_pools }] }]
      }
    }
  }
  # The Helm device plugin skips pools whose node image runs its own (Bottlerocket).
  plugin_pool_affinity = {
    nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution = {
        nodeSelectorTerms = [{ matchExpressions = [{ key = "gpuplat.dev/pool", operator = "In", values = var.plugin_pools }] }]
      }
    }
  }
  mig_flag = var.mig_strategy == null ? "none" : var.mig_strategy

  # One named config per shared pool; a node picks its config by its
  # nvidia.com/device-plugin.config label and falls back to "default" (whole GPUs).
  plugin_configs = merge(
    { default = yamlencode({ version = "v1", flags = { migStrategy = local.mig_flag } }) },
    {
      for s in var.sharing : s.name => yamlencode({
        version = "v1"
        flags   = { migStrategy = local.mig_flag }
        sharing = {
          (s.mode == "mps" ? "mps" : "timeSlicing") = {
            resources = [{ name = "nvidia.com/gpu", replicas = s.replicas }]
          }
        }
      })
    },
  )

  gke_nvidia_dir = "/home/kubernetes/bin/nvidia"
  device_plugin_values = merge(
    {
      config      = { map = local.plugin_configs, default = "default" }
      gfd         = { enabled = true }
      tolerations = local.gpu_tolerations
      affinity    = local.plugin_pool_affinity
      nfd         = { worker = { tolerations = local.gpu_tolerations } }
    },
    # GKE installs the driver under its own directory, not at the host root.
    var.cloud == "gke" ? { nvidiaDriverRoot = local.gke_nvidia_dir } : {},
  )

  # GKE 1.33+ (containerd 2) keeps the runtime config where the toolkit's default source,
  # `containerd config dump`, misleads it into writing a broken config.toml; read the file.
  gke_toolkit_env = var.cloud == "gke" ? { env = [{ name = "RUNTIME_CONFIG_SOURCE", value = "file" }] } : {}
  operator_values = merge(
    {
      # Where the cloud or the node image already installs the driver, the operator must not.
      driver = merge(
        { enabled = var.operator_driver },
        # nvidia-peermem in the driver container, built against the Network Operator's DOCA
        # driver container (not a MOFED on the host): GPUDirect RDMA over InfiniBand.
        var.gpudirect_rdma ? { rdma = { enabled = true, useHostMofed = false } } : {},
      )
      cdi          = { enabled = true, default = var.gke_host_paths }
      mig          = { strategy = var.mig_strategy == null ? "single" : var.mig_strategy }
      migManager   = { enabled = var.mig_strategy != null }
      dcgmExporter = { enabled = var.dcgm == "operator" }
      daemonsets   = { tolerations = local.gpu_tolerations }
      # The operator's NFD worker labels the GPU nodes the operands select.
      node-feature-discovery = { worker = { tolerations = local.gpu_tolerations } }
      # EKS GPU AMIs ship the container toolkit; GKE COS needs it under its own path.
      toolkit = merge(
        { enabled = var.gke_host_paths || var.cloud != "eks" },
        var.gke_host_paths ? { installDir = local.gke_nvidia_dir } : {},
        local.gke_toolkit_env,
      )
      # With DRA the NVIDIA DRA driver hands out GPUs instead of the device plugin.
      devicePlugin = merge(
        { enabled = var.device_plugin != "dra" },
        var.device_plugin == "dra" ? {} : {
          config = { name = "gpuplat-device-plugin-config", create = true, default = "default", data = local.plugin_configs }
        },
      )
    },
    var.gke_host_paths ? { hostPaths = { driverInstallDir = local.gke_nvidia_dir } } : {},
  )

  dra_values = {
    nvidiaDriverRoot            = var.operator_driver ? "/run/nvidia/driver" : (var.gke_host_paths ? local.gke_nvidia_dir : "/")
    gpuResourcesEnabledOverride = true
    resources                   = { gpus = { enabled = true } }
    kubeletPlugin               = { tolerations = local.gpu_tolerations }
  }

  dcgm_values = {
    tolerations    = local.gpu_tolerations
    affinity       = local.gpu_pool_affinity
    serviceMonitor = { enabled = false }
  }

  efa_values = {
    tolerations = local.gpu_tolerations
  }

  # The operator's daemonsets select nodes by NFD's feature.node.kubernetes.io/pci-15b3.present
  # label (a Mellanox NIC). The chart's own NFD labels them, unless the GPU Operator or the
  # device plugin chart already runs an NFD, whose workers label the same PCI devices (class 02
  # in both) and whose master serves this chart's NodeFeatureRule: two NFD masters would fight
  # over the labels.
  other_nfd = contains(["gpu-operator", "dra"], var.device_plugin) || (var.device_plugin == "nvidia-device-plugin" && length(var.plugin_pools) > 0)
  network_operator_values = {
    nfd                    = { enabled = !local.other_nfd }
    node-feature-discovery = { worker = { tolerations = local.gpu_tolerations } }
  }

  # A capacity ladder's rungs are node groups tried in order: the priority expander picks the
  # highest priority group that fits a pending pod, least-waste breaks ties between equals.
  autoscaler_ladder = length(var.cluster_autoscaler.priorities) > 0
  cluster_autoscaler_values = merge(
    {
      cloudProvider = "aws"
      awsRegion     = var.cluster_autoscaler.region
      autoDiscovery = { clusterName = var.cluster_autoscaler.cluster_name }
      rbac          = { serviceAccount = { create = true, name = var.cluster_autoscaler.service_account } }
      extraArgs = {
        # GPU nodes come from node groups of identical shape spread over zones.
        balance-similar-node-groups = true
        expander                    = local.autoscaler_ladder ? "priority,least-waste" : "least-waste"
        skip-nodes-with-system-pods = false
        # A GPU node takes minutes to be ready and a model minutes to load: do not give up on
        # a new node too early, nor remove one the moment its pods finish.
        max-node-provision-time    = "25m"
        scale-down-delay-after-add = "10m"
        scale-down-unneeded-time   = "10m"
      }
    },
    # The chart writes these into the cluster-autoscaler-priority-expander ConfigMap.
    local.autoscaler_ladder ? { expanderPriorities = var.cluster_autoscaler.priorities } : {},
  )
  # The same ConfigMap's text, where the module writes it itself. The autoscaler reads the
  # priorities as a map of integers, and yamlencode would quote the keys, so the keys are
  # written bare, highest first; the patterns, JSON-quoted, are YAML double-quoted strings.
  expander_priorities = join("", [
    for level in reverse(sort([for k in keys(var.cluster_autoscaler.priorities) : format("%08d", tonumber(k))])) :
    format("%d:\n%s", tonumber(level), join("", [for p in var.cluster_autoscaler.priorities[tostring(tonumber(level))] : format("  - %s\n", jsonencode(p))]))
  ])

  # kube-prometheus-stack as a Prometheus for the model servers' gauges alone (values.yaml of
  # chart 88.5.3): no Alertmanager, Grafana, node exporter, kube-state-metrics, default rules or
  # control-plane scrapes; every PodMonitor in any namespace is selected (the chart otherwise
  # selects only its own release's); no admission webhook, which a private control plane
  # could not reach. KEDA reads current values, so a short retention is enough.
  prometheus_values = {
    alertmanager          = { enabled = false }
    grafana               = { enabled = false }
    nodeExporter          = { enabled = false }
    kubeStateMetrics      = { enabled = false }
    defaultRules          = { create = false }
    kubeApiServer         = { enabled = false }
    kubelet               = { enabled = false }
    kubeControllerManager = { enabled = false }
    coreDns               = { enabled = false }
    kubeEtcd              = { enabled = false }
    kubeScheduler         = { enabled = false }
    kubeProxy             = { enabled = false }
    prometheusOperator    = { admissionWebhooks = { enabled = false } }
    prometheus = {
      prometheusSpec = {
        podMonitorSelectorNilUsesHelmValues     = false
        serviceMonitorSelectorNilUsesHelmValues = false
        scrapeInterval                          = "15s"
        retention                               = "2d"
      }
    }
  }

  # kedacore/charts keda values.yaml podIdentity.azureWorkload.enabled: the operator's pod and
  # service account are labelled for the workload identity webhook, which mounts the token a
  # TriggerAuthentication with podIdentity azure-workload exchanges (its identityId names the
  # identity).
  keda_values = var.keda.azure_workload_identity ? { podIdentity = { azureWorkload = { enabled = true } } } : {}

  keda_http_values = {
    interceptor = {
      # A request that arrives at zero replicas waits here while a node and the server start.
      replicas              = { waitTimeout = "${var.keda.wait_timeout_seconds}s" }
      responseHeaderTimeout = "${var.keda.wait_timeout_seconds}s"
    }
  }
}
