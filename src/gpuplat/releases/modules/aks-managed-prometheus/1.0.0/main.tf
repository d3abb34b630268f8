# gpuplat module aks-managed-prometheus 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # Azure's own Terraform template for managed Prometheus (Azure/prometheus-collector
  # AddonTerraformTemplate) names the endpoint and rule MSProm-<region>-<cluster>, within 44 and
  # 64 characters.
  collection_name = "MSProm-${var.location}-${var.name}"
  destination     = "MonitoringAccount1"
  stream          = "Microsoft-PrometheusMetrics"
}

# query_endpoint is the workspace's metrics.prometheusQueryEndpoint (terraform-provider-azurerm
# internal/services/monitor/monitor_workspace_resource.go), which KEDA queries.
resource "azurerm_monitor_workspace" "this" {
  name                = "${var.name}-prometheus"
  resource_group_name = var.resource_group_name
  location            = var.location
  tags                = var.tags
}

resource "azurerm_monitor_data_collection_endpoint" "this" {
  name                = substr(local.collection_name, 0, 44)
  resource_group_name = var.resource_group_name
  location            = var.location
  kind                = "Linux"
  tags                = var.tags
}

# The ama-metrics add-on forwards what it scrapes (its PodMonitors') to the workspace.
resource "azurerm_monitor_data_collection_rule" "this" {
  name                        = substr(local.collection_name, 0, 64)
  resource_group_name         = var.resource_group_name
  location                    = var.location
  data_collection_endpoint_id = azurerm_monitor_data_collection_endpoint.this.id
  kind                        = "Linux"
  description                 = "Managed Prometheus of AKS cluster ${var.name} (managed by gpuplat)."

  destinations {
    monitor_account {
      monitor_account_id = azurerm_monitor_workspace.this.id
      name               = local.destination
    }
  }

  data_flow {
    streams      = [local.stream]
    destinations = [local.destination]
  }

  data_sources {
    prometheus_forwarder {
      streams = [local.stream]
      name    = "PrometheusDataSource"
    }
  }

  tags = var.tags
}

resource "azurerm_monitor_data_collection_rule_association" "this" {
  name                    = local.collection_name
  target_resource_id      = var.cluster_id
  data_collection_rule_id = azurerm_monitor_data_collection_rule.this.id
  description             = "Sends the managed Prometheus metrics of AKS cluster ${var.name} to its workspace (managed by gpuplat)."
}

# KEDA's operator signs in as this identity (podIdentity azure-workload) to query the workspace.
resource "azurerm_user_assigned_identity" "keda" {
  name                = "${var.name}-keda"
  resource_group_name = var.resource_group_name
  location            = var.location
  tags                = var.tags
}

resource "azurerm_federated_identity_credential" "keda" {
  name                      = "${var.name}-keda"
  user_assigned_identity_id = azurerm_user_assigned_identity.keda.id
  issuer                    = var.oidc_issuer_url
  subject                   = "system:serviceaccount:${var.keda.namespace}:${var.keda.service_account}"
  audience                  = ["api://AzureADTokenExchange"]
}

# Read-only: Monitoring Data Reader lets the identity query the workspace's metrics, nothing else.
resource "azurerm_role_assignment" "keda" {
  scope                = azurerm_monitor_workspace.this.id
  role_definition_name = "Monitoring Data Reader"
  principal_id         = azurerm_user_assigned_identity.keda.principal_id
  principal_type       = "ServicePrincipal"
  description          = "KEDA's operator on AKS cluster ${var.name} (managed by gpuplat): queries the model servers' metrics."
}
