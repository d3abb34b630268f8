# gpuplat module route53-weighted-record 1.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # A weighted group holds one record type, and a CNAME cannot share its name: every
  # placement's weighted record is a CNAME to the placement's own name, which is an A record
  # for a load balancer with an IP (GKE, AKS) or a CNAME for one with a host name (EKS).
  own_name = "${var.placement.label}.${var.name}"
  is_ip    = can(regex("^[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+$", var.address))
}

resource "aws_route53_record" "placement" {
  zone_id = var.zone_id
  name    = local.own_name
  type    = local.is_ip ? "A" : "CNAME"
  ttl     = var.ttl
  records = [var.address]
}

# Route 53's checkers (on the internet) ask the placement's own name for the readiness path:
# a placement whose server is not ready, or whose load balancer is gone, stops being answered.
# TCP only opens a connection: for a load balancer whose requests have an effect (the KEDA
# interceptor of a scale-to-zero workload, which would start a replica for every probe).
resource "aws_route53_health_check" "this" {
  fqdn              = aws_route53_record.placement.fqdn
  port              = var.health.port
  type              = var.health.type
  resource_path     = var.health.type == "TCP" ? null : var.health.path
  request_interval  = var.health.interval
  failure_threshold = var.health.failure_threshold

  tags = {
    Name = var.placement.set_identifier
  }
}

resource "aws_route53_record" "weighted" {
  zone_id         = var.zone_id
  name            = var.name
  type            = "CNAME"
  ttl             = var.ttl
  records         = [aws_route53_record.placement.fqdn]
  set_identifier  = var.placement.set_identifier
  health_check_id = aws_route53_health_check.this.id

  weighted_routing_policy {
    weight = var.weight
  }
}
