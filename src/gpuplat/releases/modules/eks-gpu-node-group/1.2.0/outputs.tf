# gpuplat module eks-gpu-node-group 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "name" {
  description = "Node group name."
  value       = aws_eks_node_group.this.node_group_name
}

output "arn" {
  description = "Node group ARN."
  value       = aws_eks_node_group.this.arn
}

output "autoscaling_group_name" {
  description = "The autoscaling group EKS created for the node group."
  value       = aws_eks_node_group.this.resources[0].autoscaling_groups[0].name
}

output "launch_template_id" {
  description = "Launch template of the nodes."
  value       = aws_launch_template.this.id
}

output "instance_type" {
  description = "EC2 instance type of the nodes."
  value       = var.instance_type
}

output "gpus_per_node" {
  description = "Physical GPUs per node."
  value       = var.gpus_per_node
}

output "labels" {
  description = "Kubernetes labels gpuplat set on the nodes."
  value       = var.labels
}

output "taints" {
  description = "Kubernetes taints of the nodes, including nvidia.com/gpu=present:NO_SCHEDULE."
  value       = local.taints
}

output "autoscaler_tags" {
  description = "Cluster-autoscaler tags on the autoscaling group (discovery and the scale-from-zero node template)."
  value       = local.autoscaler_tags
}
