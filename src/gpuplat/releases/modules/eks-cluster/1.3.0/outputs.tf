# gpuplat module eks-cluster 1.3.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "name" {
  description = "Cluster name."
  value       = aws_eks_cluster.this.name
}

output "arn" {
  description = "Cluster ARN."
  value       = aws_eks_cluster.this.arn
}

output "region" {
  description = "AWS region of the cluster."
  value       = split(":", aws_eks_cluster.this.arn)[3]
}

output "kubernetes_version" {
  description = "Kubernetes version (major.minor) of the control plane."
  value       = aws_eks_cluster.this.version
}

output "endpoint" {
  description = "URL of the Kubernetes API (https://...)."
  value       = aws_eks_cluster.this.endpoint
}

output "ca_certificate" {
  description = "Base64-encoded CA certificate of the control plane."
  value       = aws_eks_cluster.this.certificate_authority[0].data
}

output "cluster_security_group_id" {
  description = "Security group EKS created for the control plane and managed nodes to talk to each other."
  value       = aws_eks_cluster.this.vpc_config[0].cluster_security_group_id
}

output "vpc_id" {
  description = "VPC of the cluster."
  value       = aws_eks_cluster.this.vpc_config[0].vpc_id
}

output "subnet_ids" {
  description = "Subnets of the cluster; node groups use them unless pinned to zones."
  value       = var.network.subnet_ids
}

output "subnet_ids_by_zone" {
  description = "The cluster's subnets by availability zone, for node groups pinned to zones."
  value = {
    for zone in distinct(data.aws_subnet.cluster[*].availability_zone) :
    zone => [for s in data.aws_subnet.cluster : s.id if s.availability_zone == zone]
  }
}

output "node_role_arn" {
  description = "ARN of the IAM role every node group of the cluster uses; available once the role has its policies and the add-ons nodes need (VPC CNI, kube-proxy) are installed."
  value       = aws_iam_role.nodes.arn

  # A node group created before these would start nodes that cannot join or never get ready.
  depends_on = [
    aws_iam_role_policy_attachment.nodes,
    aws_eks_addon.before_nodes,
  ]
}

output "node_role_name" {
  description = "Name of the nodes' IAM role (to attach more policies)."
  value       = aws_iam_role.nodes.name
}

output "cluster_autoscaler_role_arn" {
  description = "IAM role the cluster autoscaler's service account gets through Pod Identity (null when disabled)."
  value       = one(aws_iam_role.cluster_autoscaler[*].arn)
}

output "workload_role_arns" {
  description = "IAM role of each workload identity, by workload name."
  value       = { for name, role in aws_iam_role.workload : name => role.arn }
}

output "system_autoscaling_group_name" {
  description = "The Auto Scaling group EKS created for the system node group: the cluster autoscaler's priority expander names node groups by their Auto Scaling groups."
  value       = aws_eks_node_group.system.resources[0].autoscaling_groups[0].name
}

output "efa_security_group_id" {
  description = "The cluster's EFA security group (efa_security_group); null without one."
  value       = one(aws_security_group.efa[*].id)
}
