# gpuplat module aks-cluster 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # A DNS prefix takes letters, digits and dashes only.
  dns_prefix = substr(replace(var.name, "_", "-"), 0, 54)

  # Pools in a capacity reservation group need a user-assigned control-plane identity with
  # Contributor on the group's resource group; a system-assigned one does not work (AKS docs,
  # use-capacity-reservation-groups).
  user_assigned = length(var.reservation_group_ids) > 0
  reservation_resource_groups = toset([
    for g in var.reservation_group_ids : regex("(?i)^(/subscriptions/[^/]+/resourceGroups/[^/]+)/", g)[0]
  ])
}

resource "azurerm_user_assigned_identity" "control_plane" {
  count               = local.user_assigned ? 1 : 0
  name                = "${var.name}-control-plane"
  resource_group_name = var.resource_group_name
  location            = var.location
  tags                = var.tags
}

resource "azurerm_role_assignment" "reservations" {
  for_each             = local.user_assigned ? local.reservation_resource_groups : toset([])
  scope                = each.value
  role_definition_name = "Contributor"
  principal_id         = azurerm_user_assigned_identity.control_plane[0].principal_id
  principal_type       = "ServicePrincipal"
  description          = "Control plane of ${var.name} (managed by gpuplat): places nodes in its capacity reservation groups."
}

# A user-assigned control plane joins the nodes' subnet only with a role on it.
resource "azurerm_role_assignment" "subnet" {
  count                = local.user_assigned && var.network.subnet_id != null ? 1 : 0
  scope                = var.network.subnet_id
  role_definition_name = "Network Contributor"
  principal_id         = azurerm_user_assigned_identity.control_plane[0].principal_id
  principal_type       = "ServicePrincipal"
  description          = "Control plane of ${var.name} (managed by gpuplat): joins nodes to their subnet."
}

resource "azurerm_kubernetes_cluster" "this" {
  #checkov:skip=CKV_AZURE_4:Container Insights needs a Log Analytics workspace of the caller's; gpuplat's platform stage installs the DCGM exporter for GPU metrics instead.
  #checkov:skip=CKV_AZURE_6:Authorized API ranges are the spec's network.authorized_networks (var.network.authorized_ip_ranges); an empty list is the spec owner's choice, checked nowhere else.
  #checkov:skip=CKV_AZURE_115:A private cluster is the spec's choice (network.public_endpoint: false); the Kubernetes and Helm stages then need a runner inside the virtual network.
  #checkov:skip=CKV_AZURE_116:Azure Policy for Kubernetes enforces the organisation's assignments, which gpuplat does not know; set azure_policy_enabled where they exist.
  #checkov:skip=CKV_AZURE_117:OS and data disks are encrypted at rest with platform-managed keys; a disk encryption set with your own key is optional (var.disk_encryption_set_id).
  #checkov:skip=CKV_AZURE_141:Local accounts are disabled in protected environments (var.local_account_disabled, set by the root); other environments keep them for break-glass access.
  #checkov:skip=CKV_AZURE_170:The control-plane tier is a cost choice (var.sku_tier): Free is what gpuplat's cost model prices; Standard adds the uptime SLA.
  #checkov:skip=CKV_AZURE_172:No Key Vault secrets provider is installed, so there is no secret rotation to configure.
  #checkov:skip=CKV_AZURE_226:The system pool's default size (Standard_D4s_v5) has no temporary disk for an Ephemeral OS disk; GPU pools choose theirs (disk.type).
  #checkov:skip=CKV_AZURE_227:Encryption at host must be registered on the subscription (Microsoft.Compute/EncryptionAtHost) first; set host_encryption_enabled once it is.
  #checkov:skip=CKV_AZURE_232:System pods of the platform (KEDA, Kueue, the device plugin's controllers) must run on the system pool: GPU pools are tainted and may be at zero nodes.
  name                = var.name
  location            = var.location
  resource_group_name = var.resource_group_name
  dns_prefix          = local.dns_prefix
  kubernetes_version  = var.kubernetes_version
  sku_tier            = var.sku_tier

  automatic_upgrade_channel = var.upgrades.channel
  node_os_upgrade_channel   = var.upgrades.node_os_channel

  # Workloads get Azure identities of their own (federated with their service accounts)
  # instead of keys in secrets or the nodes' identity.
  oidc_issuer_enabled       = true
  workload_identity_enabled = true

  role_based_access_control_enabled = true
  local_account_disabled            = var.local_account_disabled
  azure_active_directory_role_based_access_control {
    azure_rbac_enabled     = var.entra.azure_rbac_enabled
    admin_group_object_ids = var.entra.admin_group_object_ids
  }

  private_cluster_enabled = var.network.private_cluster
  disk_encryption_set_id  = var.disk_encryption_set_id
  azure_policy_enabled    = var.azure_policy_enabled

  dynamic "api_server_access_profile" {
    for_each = length(var.network.authorized_ip_ranges) > 0 ? [var.network.authorized_ip_ranges] : []
    content {
      authorized_ip_ranges = api_server_access_profile.value
    }
  }

  identity {
    type         = local.user_assigned ? "UserAssigned" : "SystemAssigned"
    identity_ids = local.user_assigned ? [azurerm_user_assigned_identity.control_plane[0].id] : null
  }

  # The system pool runs system pods (CoreDNS, KEDA, the autoscaler's targets of the platform
  # stage); AKS never lets it reach zero, so the GPU pools can.
  default_node_pool {
    name                        = "system"
    temporary_name_for_rotation = "systemtmp"
    vm_size                     = var.system_pool.vm_size
    auto_scaling_enabled        = true
    min_count                   = var.system_pool.min_nodes
    max_count                   = var.system_pool.max_nodes
    node_count                  = var.system_pool.min_nodes
    max_pods                    = var.system_max_pods
    os_sku                      = "Ubuntu"
    os_disk_size_gb             = var.system_pool.disk_size_gb
    os_disk_type                = "Managed"
    vnet_subnet_id              = var.network.subnet_id
    zones                       = length(var.system_pool.zones) > 0 ? var.system_pool.zones : null
    node_public_ip_enabled      = false
    host_encryption_enabled     = var.host_encryption_enabled
    node_labels = {
      "gpuplat.dev/role" = "system"
    }
    tags = var.tags

    upgrade_settings {
      max_surge = "33%"
    }
  }

  network_profile {
    network_plugin      = "azure"
    network_plugin_mode = "overlay"
    # Cilium enforces NetworkPolicy in the data plane; no separate policy engine.
    network_data_plane = "cilium"
    network_policy     = "cilium"
    pod_cidr           = var.network.pod_cidr
    load_balancer_sku  = "standard"
    outbound_type      = "loadBalancer"
  }

  # GPU nodes take minutes to start (image pull, driver, weights): wait for them, and do not
  # remove one the moment its pods finish. The expander picks among pools that fit a pending
  # pod; "priority" takes the ranking of a cluster-autoscaler-priority-expander ConfigMap.
  auto_scaler_profile {
    expander                         = var.autoscaler.expander
    balance_similar_node_groups      = true
    max_node_provisioning_time       = var.autoscaler.max_node_provisioning_time
    scale_down_delay_after_add       = var.autoscaler.scale_down_delay_after_add
    scale_down_unneeded              = var.autoscaler.scale_down_unneeded
    scale_down_utilization_threshold = "0.5"
    skip_nodes_with_system_pods      = false
    skip_nodes_with_local_storage    = false
  }

  storage_profile {
    blob_driver_enabled = var.blob_driver
    disk_driver_enabled = true
    file_driver_enabled = false
  }

  maintenance_window_auto_upgrade {
    frequency   = "Weekly"
    interval    = 1
    day_of_week = var.maintenance.day_of_week
    start_time  = var.maintenance.start_time
    utc_offset  = var.maintenance.utc_offset
    duration    = var.maintenance.duration_hours
  }

  maintenance_window_node_os {
    frequency   = "Weekly"
    interval    = 1
    day_of_week = var.maintenance.day_of_week
    start_time  = var.maintenance.start_time
    utc_offset  = var.maintenance.utc_offset
    duration    = var.maintenance.duration_hours
  }

  # Azure Monitor managed Prometheus: the ama-metrics add-on, which scrapes what its PodMonitors
  # (azmonitoring.coreos.com) select; its data collection rule is the caller's.
  dynamic "monitor_metrics" {
    for_each = var.managed_prometheus ? [1] : []
    content {}
  }

  # Node auto-provisioning (Karpenter on AKS) stays off unless asked: the GPU pools are
  # declared, so their shapes, zones and capacity types are reviewed in the plan.
  dynamic "node_provisioning_profile" {
    for_each = var.node_provisioning_mode == null ? [] : [var.node_provisioning_mode]
    content {
      mode = node_provisioning_profile.value
    }
  }

  tags = var.tags

  # The roles exist before the control plane acts as the identity.
  depends_on = [azurerm_role_assignment.reservations, azurerm_role_assignment.subnet]

  lifecycle {
    # The autoscaler owns the system pool's node count; Terraform owns the bounds.
    ignore_changes = [default_node_pool[0].node_count]
  }
}

data "azurerm_client_config" "current" {}

# The Kubernetes and Helm stages sign in as whoever applied this one (kubelogin turns the Azure
# CLI login, or CI's service principal, into an Entra token). With Azure RBAC that identity is
# authorized only through a role on the cluster; without one every request is a 403.
resource "azurerm_role_assignment" "deployer" {
  count                = var.deployer_admin ? 1 : 0
  scope                = azurerm_kubernetes_cluster.this.id
  role_definition_name = "Azure Kubernetes Service RBAC Cluster Admin"
  principal_id         = data.azurerm_client_config.current.object_id
  description          = "The identity that applies ${var.name}'s Terraform (managed by gpuplat): the platform and serving stages run as it."

  lifecycle {
    precondition {
      condition     = var.entra.azure_rbac_enabled
      error_message = "deployer_admin grants an Azure role, which authorizes Kubernetes requests only with entra.azure_rbac_enabled."
    }
  }
}
