# gpuplat module eks-cluster 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

data "aws_partition" "current" {}

locals {
  partition = data.aws_partition.current.partition
  policy    = "arn:${local.partition}:iam::aws:policy"
  # CoreDNS needs a node to run on; the others must be there before nodes join (networking,
  # kube-proxy) or are DaemonSets that are ready with no nodes at all.
  addons_before_nodes = { for name, a in var.addons : name => a if name != "coredns" }
  addons_after_nodes  = { for name, a in var.addons : name => a if name == "coredns" }
  # What a node itself needs: join the cluster and pull images (pull only: the ReadOnly policy
  # also lists and describes every repository). The VPC CNI's permissions go to aws-node's own
  # role through Pod Identity (below), so no other pod on a node can use them; Session Manager
  # only when asked for.
  node_policies = toset(concat(
    ["AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly"],
    var.cni_pod_identity ? [] : ["AmazonEKS_CNI_Policy"],
    var.ssm_access ? ["AmazonSSMManagedInstanceCore"] : [],
  ))
  pod_trust = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "pods.eks.amazonaws.com" }
      Action    = ["sts:AssumeRole", "sts:TagSession"]
    }]
  })
  cni_role = var.cni_pod_identity
}

# --- control plane -----------------------------------------------------------------------------

resource "aws_iam_role" "cluster" {
  name_prefix = "${substr(var.name, 0, 29)}-cluster-"
  description = "EKS control plane of ${var.name} (managed by gpuplat)."
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "eks.amazonaws.com" }
      Action    = "sts:AssumeRole"
    }]
  })

  tags = var.tags
}

resource "aws_iam_role_policy_attachment" "cluster" {
  role       = aws_iam_role.cluster.name
  policy_arn = "${local.policy}/AmazonEKSClusterPolicy"
}

# EKS would create this group itself, with no expiry; created here it keeps logs for a bounded time.
resource "aws_cloudwatch_log_group" "cluster" {
  #checkov:skip=CKV_AWS_158:CloudWatch Logs encrypts log data at rest by default; logging.kms_key_arn adds your own key, whose key policy must let the logs service use it, which this module cannot grant.
  #checkov:skip=CKV_AWS_338:Retention is logging.retention_days (default 30): control-plane audit logs at API-server volume cost more than a year is worth for most teams; set 365 or more where policy asks.
  name              = "/aws/eks/${var.name}/cluster"
  retention_in_days = var.logging.retention_days
  kms_key_id        = var.logging.kms_key_arn

  tags = var.tags
}

resource "aws_eks_cluster" "this" {
  #checkov:skip=CKV_AWS_39:The public endpoint is a choice (endpoint.public, gpuplat's network.public_endpoint): on by default so Terraform's later stages and kubectl outside the VPC reach the API, limited to endpoint.public_cidrs (authorized_networks).
  #checkov:skip=CKV_AWS_58:EKS envelope-encrypts all Kubernetes API data, secrets included, with an AWS-owned key by default (Kubernetes 1.28 and later); secrets_kms_key_arn adds your own KMS key.
  name                      = var.name
  version                   = var.kubernetes_version
  role_arn                  = aws_iam_role.cluster.arn
  enabled_cluster_log_types = var.logging.types
  # The core add-ons are managed below as EKS add-ons; the unmanaged copies EKS would
  # otherwise install first would fight them.
  bootstrap_self_managed_addons = false

  vpc_config {
    subnet_ids              = var.network.subnet_ids
    endpoint_private_access = true
    endpoint_public_access  = var.endpoint.public
    public_access_cidrs     = var.endpoint.public ? var.endpoint.public_cidrs : null
  }

  access_config {
    # Access entries only: no aws-auth ConfigMap to edit (or to lock everyone out with).
    authentication_mode                         = "API"
    bootstrap_cluster_creator_admin_permissions = var.bootstrap_creator_admin
  }

  dynamic "encryption_config" {
    for_each = var.secrets_kms_key_arn == null ? [] : [var.secrets_kms_key_arn]
    content {
      resources = ["secrets"]
      provider {
        key_arn = encryption_config.value
      }
    }
  }

  timeouts {
    create = var.timeouts.create
    update = var.timeouts.update
    delete = var.timeouts.delete
  }

  tags = var.tags

  depends_on = [
    aws_iam_role_policy_attachment.cluster,
    aws_cloudwatch_log_group.cluster,
  ]
}

# CI runners and other networks that reach the private endpoint (inside the VPC, or peered or
# connected to it): the control plane's network interfaces carry the cluster security group,
# which EKS also puts on managed nodes, so these networks reach the nodes on 443 as well.
resource "aws_vpc_security_group_ingress_rule" "private_api" {
  for_each = { for n in var.endpoint.private_networks : n.cidr => n }

  security_group_id = aws_eks_cluster.this.vpc_config[0].cluster_security_group_id
  cidr_ipv4         = each.key
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = each.value.description != "" ? "Kubernetes API from ${each.value.description}" : "Kubernetes API from ${each.key}"

  tags = var.tags
}

# One EFA security group for every EFA node group of the cluster: EFA traffic flows only between
# interfaces whose security group admits all traffic from and to itself (EC2 User Guide, "Prepare
# an EFA-enabled security group"), so node groups with a group each could not reach each other
# over EFA. The node groups put it on every EFA interface (eks-gpu-node-group efa.security_group_id).
resource "aws_security_group" "efa" {
  count = var.efa_security_group ? 1 : 0

  name_prefix = "${substr(var.name, 0, 200)}-efa-"
  description = "EFA traffic between the EFA nodes of EKS cluster ${var.name} (managed by gpuplat)"
  vpc_id      = aws_eks_cluster.this.vpc_config[0].vpc_id

  tags = merge(var.tags, { Name = "${var.name}-efa" })
}

resource "aws_vpc_security_group_ingress_rule" "efa" {
  count = var.efa_security_group ? 1 : 0

  security_group_id            = aws_security_group.efa[0].id
  referenced_security_group_id = aws_security_group.efa[0].id
  ip_protocol                  = "-1"
  description                  = "EFA from the cluster's EFA nodes"

  tags = var.tags
}

resource "aws_vpc_security_group_egress_rule" "efa" {
  count = var.efa_security_group ? 1 : 0

  security_group_id            = aws_security_group.efa[0].id
  referenced_security_group_id = aws_security_group.efa[0].id
  ip_protocol                  = "-1"
  description                  = "EFA to the cluster's EFA nodes"

  tags = var.tags
}

data "aws_subnet" "cluster" {
  count = length(var.network.subnet_ids)

  id = var.network.subnet_ids[count.index]

  lifecycle {
    postcondition {
      condition     = var.network.vpc_id == null || self.vpc_id == var.network.vpc_id
      error_message = "subnet ${self.id} is in ${self.vpc_id}, not in network.vpc_id ${coalesce(var.network.vpc_id, "-")}."
    }
  }
}

resource "aws_eks_access_entry" "admins" {
  for_each = toset(var.admins)

  cluster_name  = aws_eks_cluster.this.name
  principal_arn = each.value
  type          = "STANDARD"

  tags = var.tags
}

resource "aws_eks_access_policy_association" "admins" {
  for_each = toset(var.admins)

  cluster_name  = aws_eks_cluster.this.name
  principal_arn = aws_eks_access_entry.admins[each.value].principal_arn
  policy_arn    = "arn:${local.partition}:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"

  access_scope {
    type = "cluster"
  }
}

# The VPC CNI (aws-node) assigns pod addresses with this role, through Pod Identity.
resource "aws_iam_role" "cni" {
  count = local.cni_role ? 1 : 0

  name_prefix        = "${substr(var.name, 0, 29)}-vpc-cni-"
  description        = "VPC CNI (aws-node) of EKS cluster ${var.name}, through EKS Pod Identity (managed by gpuplat)."
  assume_role_policy = local.pod_trust

  tags = var.tags
}

resource "aws_iam_role_policy_attachment" "cni" {
  count = local.cni_role ? 1 : 0

  role       = aws_iam_role.cni[0].name
  policy_arn = "${local.policy}/AmazonEKS_CNI_Policy"
}

# The version of each add-on the call does not pin, for the cluster's minor. addon_version is
# Optional+Computed in the provider: left null, an add-on keeps the version it was created with
# when the minor goes up, and the EKS upgrade guide requires moving VPC CNI, CoreDNS and
# kube-proxy with the control plane. Read from var.kubernetes_version (not the cluster's
# attribute), so a minor change shows the new add-on versions in the same plan; the add-ons
# still update after the control plane, whose name they reference.
data "aws_eks_addon_version" "this" {
  for_each = var.addons

  addon_name         = each.key
  kubernetes_version = var.kubernetes_version
  most_recent        = var.addons_most_recent
}

resource "aws_eks_addon" "before_nodes" {
  for_each = local.addons_before_nodes

  cluster_name                = aws_eks_cluster.this.name
  addon_name                  = each.key
  addon_version               = coalesce(each.value.version, data.aws_eks_addon_version.this[each.key].version)
  configuration_values        = each.value.configuration
  resolve_conflicts_on_create = "OVERWRITE"
  resolve_conflicts_on_update = "OVERWRITE"

  dynamic "pod_identity_association" {
    for_each = each.key == "vpc-cni" && local.cni_role ? [aws_iam_role.cni[0].arn] : []
    content {
      role_arn        = pod_identity_association.value
      service_account = "aws-node"
    }
  }

  tags = var.tags

  depends_on = [aws_iam_role_policy_attachment.cni]
}

# --- nodes -------------------------------------------------------------------------------------

resource "aws_iam_role" "nodes" {
  name_prefix = "${substr(var.name, 0, 31)}-nodes-"
  description = "EC2 nodes of EKS cluster ${var.name}: join the cluster, run the VPC CNI, pull from ECR (managed by gpuplat)."
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "ec2.amazonaws.com" }
      Action    = "sts:AssumeRole"
    }]
  })

  tags = var.tags
}

resource "aws_iam_role_policy_attachment" "nodes" {
  for_each = local.node_policies

  role       = aws_iam_role.nodes.name
  policy_arn = "${local.policy}/${each.value}"
}

resource "aws_launch_template" "system" {
  name_prefix = "${substr(var.name, 0, 80)}-system-"
  description = "System nodes of EKS cluster ${var.name} (managed by gpuplat)."
  # A new version rolls the node group; keep the default pointing at the newest.
  update_default_version = true

  metadata_options {
    # IMDSv2 only, and one hop: pods (one hop further) cannot borrow the node's role;
    # they get their own through EKS Pod Identity.
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  block_device_mappings {
    device_name = startswith(var.system_pool.ami_type, "BOTTLEROCKET") ? "/dev/xvdb" : "/dev/xvda"
    ebs {
      volume_size           = var.system_pool.disk_size_gb
      volume_type           = "gp3"
      encrypted             = true
      delete_on_termination = true
    }
  }

  dynamic "tag_specifications" {
    # Provider default_tags never reach instances the node group's autoscaling group launches.
    for_each = toset(["instance", "volume", "network-interface"])
    content {
      resource_type = tag_specifications.value
      tags          = merge(var.tags, { Name = "${var.name}-system" })
    }
  }

  tags = var.tags
}

resource "aws_eks_node_group" "system" {
  cluster_name    = aws_eks_cluster.this.name
  node_group_name = "system"
  version         = aws_eks_cluster.this.version
  node_role_arn   = aws_iam_role.nodes.arn
  subnet_ids      = var.network.subnet_ids
  instance_types  = [var.system_pool.instance_type]
  ami_type        = var.system_pool.ami_type
  capacity_type   = "ON_DEMAND"

  scaling_config {
    min_size     = var.system_pool.min_nodes
    max_size     = var.system_pool.max_nodes
    desired_size = max(var.system_pool.min_nodes, 1)
  }

  update_config {
    max_unavailable = 1
  }

  launch_template {
    id      = aws_launch_template.system.id
    version = aws_launch_template.system.latest_version
  }

  labels = {
    "gpuplat.dev/role" = "system"
  }

  timeouts {
    create = var.timeouts.create
    update = var.timeouts.update
    delete = var.timeouts.delete
  }

  tags = var.tags

  lifecycle {
    # The autoscaler owns the node count; Terraform owns the bounds.
    ignore_changes = [scaling_config[0].desired_size]
  }

  depends_on = [
    aws_iam_role_policy_attachment.nodes,
    aws_eks_addon.before_nodes,
  ]
}

resource "aws_eks_addon" "after_nodes" {
  for_each = local.addons_after_nodes

  cluster_name                = aws_eks_cluster.this.name
  addon_name                  = each.key
  addon_version               = coalesce(each.value.version, data.aws_eks_addon_version.this[each.key].version)
  configuration_values        = each.value.configuration
  resolve_conflicts_on_create = "OVERWRITE"
  resolve_conflicts_on_update = "OVERWRITE"

  tags = var.tags

  depends_on = [aws_eks_node_group.system]
}

# --- cluster autoscaler ------------------------------------------------------------------------

resource "aws_iam_role" "cluster_autoscaler" {
  count = var.cluster_autoscaler.enabled ? 1 : 0

  name_prefix        = "${substr(var.name, 0, 26)}-autoscaler-"
  description        = "Cluster autoscaler of EKS cluster ${var.name}, through EKS Pod Identity (managed by gpuplat)."
  assume_role_policy = local.pod_trust

  tags = var.tags
}

resource "aws_iam_role_policy" "cluster_autoscaler" {
  #checkov:skip=CKV_AWS_355:The Describe and Get actions have no resource-level permissions, so they need "*"; the two actions that change anything are limited to autoscaling groups tagged as this cluster's.
  count = var.cluster_autoscaler.enabled ? 1 : 0

  name = "cluster-autoscaler"
  role = aws_iam_role.cluster_autoscaler[0].id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid    = "Discover"
        Effect = "Allow"
        Action = [
          "autoscaling:DescribeAutoScalingGroups",
          "autoscaling:DescribeAutoScalingInstances",
          "autoscaling:DescribeLaunchConfigurations",
          "autoscaling:DescribeScalingActivities",
          "autoscaling:DescribeTags",
          "ec2:DescribeImages",
          "ec2:DescribeInstanceTypes",
          "ec2:DescribeLaunchTemplateVersions",
          "ec2:GetInstanceTypesFromInstanceRequirements",
          "eks:DescribeNodegroup",
        ]
        Resource = "*"
      },
      {
        Sid      = "ResizeOwnGroups"
        Effect   = "Allow"
        Action   = ["autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"]
        Resource = "*"
        Condition = {
          StringEquals = { "aws:ResourceTag/k8s.io/cluster-autoscaler/${var.name}" = "owned" }
        }
      },
    ]
  })
}

resource "aws_eks_pod_identity_association" "cluster_autoscaler" {
  count = var.cluster_autoscaler.enabled ? 1 : 0

  cluster_name    = aws_eks_cluster.this.name
  namespace       = var.cluster_autoscaler.namespace
  service_account = var.cluster_autoscaler.service_account
  role_arn        = aws_iam_role.cluster_autoscaler[0].arn

  tags = var.tags

  depends_on = [aws_eks_addon.before_nodes]
}

# --- workloads ---------------------------------------------------------------------------------

# One role per workload that reads its weights from S3, bound to the workload's service account
# (namespace/name) through Pod Identity: read access to exactly the model's bucket and prefix.
# Nodes keep IMDSv2 with one hop, so a pod has no credentials but these.
resource "aws_iam_role" "workload" {
  for_each = var.workload_identities

  name_prefix        = "${substr("${var.name}-${each.key}", 0, 37)}-"
  description        = "Workload ${each.key} of EKS cluster ${var.name}: reads its model weights, through EKS Pod Identity (managed by gpuplat)."
  assume_role_policy = local.pod_trust

  tags = var.tags
}

resource "aws_iam_role_policy" "workload" {
  for_each = var.workload_identities

  name = "read-model-weights"
  role = aws_iam_role.workload[each.key].id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = concat(
      [{
        Sid      = "ReadWeights"
        Effect   = "Allow"
        Action   = ["s3:GetObject"]
        Resource = [for r in each.value.s3_read : r.prefix == "" ? "arn:${local.partition}:s3:::${r.bucket}/*" : "arn:${local.partition}:s3:::${r.bucket}/${r.prefix}/*"]
      }],
      [for i, r in each.value.s3_read : merge(
        {
          Sid      = "ListWeights${i}"
          Effect   = "Allow"
          Action   = ["s3:ListBucket"]
          Resource = "arn:${local.partition}:s3:::${r.bucket}"
        },
        r.prefix == "" ? {} : { Condition = { StringLike = { "s3:prefix" = [r.prefix, "${r.prefix}/*"] } } },
      )],
    )
  })
}

resource "aws_eks_pod_identity_association" "workload" {
  for_each = var.workload_identities

  cluster_name    = aws_eks_cluster.this.name
  namespace       = each.value.namespace
  service_account = each.value.service_account
  role_arn        = aws_iam_role.workload[each.key].arn

  tags = var.tags

  depends_on = [aws_eks_addon.before_nodes]
}
