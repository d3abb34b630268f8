# gpuplat module eks-network 1.0.1: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "vpc_id" {
  description = "VPC id."
  value       = aws_vpc.this.id
}

output "private_subnet_ids" {
  description = "Private subnet ids, in the order of var.zones: for the cluster and its nodes."
  value       = [for zone in var.zones : aws_subnet.private[zone].id]
}

output "public_subnet_ids" {
  description = "Public subnet ids, in the order of var.zones: for NAT gateways and internet-facing load balancers."
  value       = [for zone in var.zones : aws_subnet.public[zone].id]
}

output "subnet_ids_by_zone" {
  description = "Private subnet ids by availability zone (one each), for node groups pinned to zones."
  value       = { for zone in var.zones : zone => [aws_subnet.private[zone].id] }
}

output "nat_public_ips" {
  description = "Public IPs the nodes' outbound traffic comes from (for allow-lists)."
  value       = [for zone in local.nat_zones : aws_eip.nat[zone].public_ip]
}
