# gpuplat module nic-cluster-policy 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # The RDMA shared device plugin's own configuration (k8s-rdma-shared-dev-plugin configList),
  # passed through by the operator: every HCA of the vendors' InfiniBand NICs on a node is one
  # resource that up to hca_max pods share.
  rdma_config = jsonencode({
    configList = [{
      resourceName = var.resource_name
      rdmaHcaMax   = var.hca_max
      selectors    = { vendors = var.vendors, linkTypes = ["infiniband"] }
    }]
  })

  image = { for k, v in var.images : k => { repository = v.repository, image = v.image, version = v.version } }
}

# The operator reconciles exactly one NicClusterPolicy, named nic-cluster-policy. Its operands run
# on the InfiniBand pools only (by their pool label), tolerating the GPU nodes' taints.
resource "kubernetes_manifest" "this" {
  manifest = {
    apiVersion = "mellanox.com/v1alpha1"
    kind       = "NicClusterPolicy"
    metadata   = { name = "nic-cluster-policy", labels = { "app.kubernetes.io/managed-by" = "gpuplat" } }
    spec = {
      nodeAffinity = {
        requiredDuringSchedulingIgnoredDuringExecution = {
          nodeSelectorTerms = [{ matchExpressions = [{ key = var.pool_label, operator = "In", values = var.pools }] }]
        }
      }
      tolerations = var.tolerations
      ofedDriver = merge(local.image.ofed_driver, {
        # Azure's guide (Azure/aks-rdma-infiniband, configs/nicclusterpolicy/base) sets this
        # against a race in which the kernel module fails to load (Mellanox/doca-driver-build #52).
        env = [{ name = "OFED_BLACKLIST_MODULES_FILE", value = "/host/etc/modprobe.d/blacklist-ofed-modules.conf" }]
        # A driver upgrade drains one node at a time: a multi-host group on it restarts whole.
        upgradePolicy = {
          autoUpgrade         = true
          maxParallelUpgrades = 1
          drain               = { enable = true, deleteEmptyDir = true, force = false, timeoutSeconds = var.drain_timeout_seconds }
        }
      })
      rdmaSharedDevicePlugin = merge(local.image.rdma_shared_device_plugin, { config = local.rdma_config })
    }
  }
}
