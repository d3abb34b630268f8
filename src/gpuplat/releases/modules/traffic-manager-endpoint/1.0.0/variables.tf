# gpuplat module traffic-manager-endpoint 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "profile" {
  description = "The Weighted Traffic Manager profile: its name (also its DNS label under trafficmanager.net), resource group and subscription, and whether this placement creates it (exactly one placement does; the others only add their endpoint to it)."
  type = object({
    name                = string
    resource_group_name = string
    subscription_id     = string
    create              = bool
  })
}

variable "name" {
  description = "The front door's name, which clients call (e.g. chat.example.com)."
  type        = string
}

variable "endpoint" {
  description = "The placement's endpoint name in the profile (workload-cluster)."
  type        = string
}

variable "address" {
  description = "Host name or IPv4 address of the placement's load balancer."
  type        = string
}

variable "weight" {
  description = "gpuplat's weight of the placement: 0 while it is a standby (the endpoint is disabled), 1..1000 while it serves (the endpoint is enabled at that weight)."
  type        = number

  validation {
    condition     = var.weight >= 0 && var.weight <= 1000
    error_message = "Traffic Manager weights are 1..1000; 0 disables the endpoint."
  }
}

variable "ttl" {
  description = "TTL of the profile's answers and of the alias record, seconds: how long resolvers keep an answer after a failover."
  type        = number
}

variable "health" {
  description = "What Traffic Manager's monitor probes on every endpoint of the profile: the server's readiness path on its port, over HTTP (type TCP: only a connection to the port), every interval seconds (10 or 30), an endpoint degraded after failure_threshold misses in a row."
  type = object({
    path              = string
    port              = number
    interval          = number
    failure_threshold = number
    type              = optional(string, "HTTP")
  })

  validation {
    condition     = contains([10, 30], var.health.interval)
    error_message = "Traffic Manager monitors probe every 10 or 30 seconds."
  }

  validation {
    condition     = contains(["HTTP", "TCP"], var.health.type)
    error_message = "health.type is HTTP or TCP."
  }

  validation {
    condition     = var.health.failure_threshold >= 1 && var.health.failure_threshold <= 10
    error_message = "Traffic Manager tolerates 0..9 failures before the one that degrades an endpoint: failure_threshold is 1..10."
  }
}

variable "dns_zone" {
  description = "An Azure DNS zone you own, where the profile's creator writes the front door's name as an alias (CNAME) of the profile: the zone's name, its resource group and the record's name in it. Null: point the name at the profile's fqdn yourself."
  type = object({
    name                = string
    resource_group_name = string
    record              = string
  })
  default = null
}
