# gpuplat module aks-gpu-node-pool 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  spot = var.capacity.priority == "Spot"
  # Nothing without a GPU toleration may land on a GPU node, and AKS adds no such taint by
  # itself. On spot pools AKS adds its own spot taint and label; declaring them keeps
  # Terraform's view equal to the pool's, so plans show no perpetual diff.
  taints = concat(
    [{ key = "nvidia.com/gpu", value = "present", effect = "NoSchedule" }],
    local.spot ? [{ key = "kubernetes.azure.com/scalesetpriority", value = "spot", effect = "NoSchedule" }] : [],
    [for t in var.taints : t if !(t.key == "nvidia.com/gpu" && t.effect == "NoSchedule") && !(local.spot && t.key == "kubernetes.azure.com/scalesetpriority")],
  )
  labels = merge(var.labels, local.spot ? { "kubernetes.azure.com/scalesetpriority" = "spot" } : {})

  # At zero nodes the cluster autoscaler builds its node template from the VM size (one GPU
  # for Standard_NC24ads_A100_v4), not from the MIG instances or time-sliced replicas a node
  # advertises, unless the scale set carries this tag (cloudprovider/azure/azure_template.go,
  # "_" read as "/"). AKS copies node pool tags onto the pool's scale set.
  # Other resources a node offers pods (rdma/ib on an InfiniBand pool) the same way.
  autoscaler_tags = merge(
    { for name, count in var.template_resources : "k8s.io_cluster-autoscaler_node-template_resources_${replace(name, "/", "_")}" => count },
    { "k8s.io_cluster-autoscaler_node-template_resources_nvidia.com_gpu" = tostring(coalesce(var.advertised_gpus, var.gpus_per_node)) },
  )
}

# Changing any of these on an existing pool makes azurerm cycle it through a temporary pool
# (temporary_name_for_rotation): a second pool of the old size, which needs a second set of GPUs
# in quota, and the old nodes deleted without cordon or drain; without the name the apply fails.
# gpuplat renders no temporary name for GPU pools: such a change replaces the pool, which the
# plan shows (and its summary flags) before anything is deleted.
resource "terraform_data" "rotation" {
  input = {
    vm_size                 = var.vm_size
    zones                   = var.zones
    os_disk_size_gb         = var.disk.size_gb
    os_disk_type            = var.disk.type
    max_pods                = var.max_pods
    host_encryption_enabled = var.host_encryption_enabled
    vnet_subnet_id          = var.vnet_subnet_id
  }
}

resource "azurerm_kubernetes_cluster_node_pool" "this" {
  #checkov:skip=CKV_AZURE_227:Encryption at host must be registered on the subscription (Microsoft.Compute/EncryptionAtHost) first; set host_encryption_enabled once it is.
  name                  = var.name
  kubernetes_cluster_id = var.kubernetes_cluster_id
  orchestrator_version  = var.orchestrator_version
  vnet_subnet_id        = var.vnet_subnet_id
  mode                  = "User"
  vm_size               = var.vm_size
  os_type               = "Linux"
  os_sku                = var.os_sku
  gpu_driver            = var.gpu_driver
  gpu_instance          = var.gpu_instance
  zones                 = length(var.zones) > 0 ? var.zones : null

  auto_scaling_enabled = true
  min_count            = var.scaling.min_nodes
  max_count            = var.scaling.max_nodes
  # Start at the lower bound; afterwards the autoscaler owns the node count.
  node_count = var.scaling.min_nodes
  # Delete, not deallocate: a deallocated GPU VM still holds its quota and disk.
  scale_down_mode = "Delete"

  priority                      = var.capacity.priority
  eviction_policy               = local.spot ? "Delete" : null
  spot_max_price                = local.spot ? var.capacity.spot_max_price : null
  capacity_reservation_group_id = var.capacity.capacity_reservation_group_id

  max_pods                = var.max_pods
  os_disk_size_gb         = var.disk.size_gb
  os_disk_type            = var.disk.type
  node_public_ip_enabled  = false
  host_encryption_enabled = var.host_encryption_enabled

  node_labels = local.labels
  node_taints = [for t in local.taints : t.value == "" ? "${t.key}:${t.effect}" : "${t.key}=${t.value}:${t.effect}"]

  # Replace nodes in place, one at a time: a surge node would wait for a GPU (and quota) that
  # is not there. Only one of max_surge and max_unavailable is set (azurerm sends the other as
  # 0); Spot pools take no upgrade settings.
  dynamic "upgrade_settings" {
    for_each = local.spot ? [] : [var.upgrade]
    content {
      max_surge                = upgrade_settings.value.max_surge
      max_unavailable          = upgrade_settings.value.max_unavailable
      drain_timeout_in_minutes = upgrade_settings.value.drain_timeout_in_minutes
    }
  }

  tags = merge(var.tags, local.autoscaler_tags)

  lifecycle {
    # The autoscaler owns the node count; Terraform owns the bounds.
    ignore_changes       = [node_count]
    replace_triggered_by = [terraform_data.rotation]
  }
}
