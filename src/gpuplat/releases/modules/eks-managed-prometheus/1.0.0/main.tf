# gpuplat module eks-managed-prometheus 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # The collector's Prometheus configuration (AMP user guide, "Scraper configuration": global,
  # scrape_config, relabel_config and kubernetes_sd_config are allowed). One job per workload:
  # pods of its namespace, kept only when they carry its label and expose the named port; the
  # namespace becomes a label, so KEDA's sum(<metric>{namespace="<workload>"}) finds them.
  label_meta = "__meta_kubernetes_pod_label_${replace(replace(var.label_key, ".", "_"), "/", "_")}"
  scrape_configuration = yamlencode({
    global = { scrape_interval = var.scrape_interval }
    scrape_configs = [for t in var.targets : {
      job_name              = t.workload
      metrics_path          = t.path
      kubernetes_sd_configs = [{ role = "pod", namespaces = { names = [t.namespace] } }]
      relabel_configs = [
        {
          action        = "keep"
          source_labels = [local.label_meta, "__meta_kubernetes_pod_container_port_name"]
          regex         = "${t.label};${t.port}"
        },
        { source_labels = ["__meta_kubernetes_namespace"], target_label = "namespace" },
        { source_labels = ["__meta_kubernetes_pod_name"], target_label = "pod" },
      ]
    }]
  })
  pod_trust = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "pods.eks.amazonaws.com" }
      Action    = ["sts:AssumeRole", "sts:TagSession"]
    }]
  })
}

resource "aws_prometheus_workspace" "this" {
  alias = var.name
  tags  = var.tags
}

# The AWS managed collector: agentless, its network interfaces in the cluster's subnets. With
# the cluster's API authentication mode AMP creates the collector's access entry itself.
resource "aws_prometheus_scraper" "this" {
  alias                = var.name
  scrape_configuration = local.scrape_configuration

  source {
    eks {
      cluster_arn        = var.cluster_arn
      subnet_ids         = var.subnet_ids
      security_group_ids = var.security_group_ids
    }
  }

  destination {
    amp {
      workspace_arn = aws_prometheus_workspace.this.arn
    }
  }

  tags = var.tags
}

# KEDA's operator signs its prometheus queries (SigV4, service aps) with this role: it may run
# queries on this workspace (GET /api/v1/query is aps:QueryMetrics) and nothing else.
resource "aws_iam_role" "keda" {
  name_prefix        = "${substr(var.name, 0, 29)}-keda-"
  description        = "KEDA's operator on EKS cluster ${var.name}: queries its Amazon Managed Prometheus workspace, through EKS Pod Identity (managed by gpuplat)."
  assume_role_policy = local.pod_trust

  tags = var.tags
}

resource "aws_iam_role_policy" "keda" {
  name = "query-serving-metrics"
  role = aws_iam_role.keda.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "QueryServingMetrics"
      Effect   = "Allow"
      Action   = ["aps:QueryMetrics"]
      Resource = aws_prometheus_workspace.this.arn
    }]
  })
}

resource "aws_eks_pod_identity_association" "keda" {
  cluster_name    = var.name
  namespace       = var.keda.namespace
  service_account = var.keda.service_account
  role_arn        = aws_iam_role.keda.arn

  tags = var.tags
}
