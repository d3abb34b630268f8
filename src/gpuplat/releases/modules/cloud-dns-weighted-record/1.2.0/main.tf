# gpuplat module cloud-dns-weighted-record 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  fqdn = endswith(var.name, ".") ? var.name : "${var.name}."
  tcp  = var.health.type == "TCP"
}

# A global health check with source regions: Google's probers in those three regions ask each
# placement's IP, over the internet, for the readiness path (TCP: only a connection, for a load
# balancer whose requests have an effect, such as the KEDA interceptor of a scale-to-zero
# workload, which would start a GPU replica for every probe).
# (One resource per kind, each counted in or out: the provider takes exactly one kind of check.)
resource "google_compute_health_check" "tcp" {
  count = local.tcp ? 1 : 0

  project             = var.project
  name                = var.health.name
  description         = "Front door ${local.fqdn}: the placements' load balancers answer"
  check_interval_sec  = var.health.interval
  timeout_sec         = 10
  unhealthy_threshold = var.health.failure_threshold
  source_regions      = var.health.regions

  tcp_health_check {
    port = var.health.port
  }
}

resource "google_compute_health_check" "http" {
  count = local.tcp ? 0 : 1

  project             = var.project
  name                = var.health.name
  description         = "Front door ${local.fqdn}: the placements' readiness"
  check_interval_sec  = var.health.interval
  timeout_sec         = 10
  unhealthy_threshold = var.health.failure_threshold
  source_regions      = var.health.regions

  http_health_check {
    port         = var.health.port
    request_path = var.health.path
  }
}

# One record set holds every placement: Cloud DNS answers, by weight, the items whose IP passes
# the health check. A standby's weight is 0: it keeps its item and gets no share. Until a
# placement has an address there is no record set: a routing policy needs exactly one of wrr,
# geo or primary_backup (the provider's ExactlyOneOf), and a wrr block without an item is none.
resource "google_dns_record_set" "this" {
  count = length(var.placements) > 0 ? 1 : 0

  project      = var.project
  managed_zone = var.managed_zone
  name         = local.fqdn
  type         = "A"
  ttl          = var.ttl

  routing_policy {
    health_check = one(concat(google_compute_health_check.tcp[*].id, google_compute_health_check.http[*].id))

    dynamic "wrr" {
      for_each = var.placements
      content {
        weight = wrr.value.weight

        health_checked_targets {
          external_endpoints = [wrr.value.address]
        }
      }
    }
  }
}

# 1.1.0 held the record set without a count: its state moves to the one instance, not replaced.
moved {
  from = google_dns_record_set.this
  to   = google_dns_record_set.this[0]
}
