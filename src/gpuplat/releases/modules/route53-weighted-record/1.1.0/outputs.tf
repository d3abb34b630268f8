# gpuplat module route53-weighted-record 1.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "weight" {
  description = "The placement's weight in the front door's group."
  value       = aws_route53_record.weighted.weighted_routing_policy[0].weight
}

output "name" {
  description = "The placement's own name (its load balancer), which the health check probes."
  value       = aws_route53_record.placement.fqdn
}
