# gpuplat module cloud-dns-weighted-record 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "project" {
  description = "The Google Cloud project of the managed zone and the health check."
  type        = string
}

variable "managed_zone" {
  description = "The name of the public managed zone that holds the front door's name (you own it)."
  type        = string
}

variable "name" {
  description = "The front door's name, which clients call (e.g. chat.example.com; the trailing dot is added)."
  type        = string
}

variable "ttl" {
  description = "TTL of the record set, seconds: how long resolvers keep an answer after a failover."
  type        = number
}

variable "placements" {
  description = "Per placement (workload@cluster): its weight (0 while it is a standby, above 0 while it serves) and the IPv4 address of its load balancer, which Cloud DNS answers while the health check passes. A placement without an address yet is left out; with none, no record set is created (the health check is)."
  type = map(object({
    weight  = number
    address = string
  }))

  validation {
    condition     = alltrue([for p in values(var.placements) : p.weight >= 0 && p.weight <= 10000])
    error_message = "Cloud DNS weights are 0..10000."
  }

  validation {
    condition     = alltrue([for p in values(var.placements) : can(regex("^[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+$", p.address))])
    error_message = "Cloud DNS health checks external endpoints by IPv4 address: a host name cannot be a target."
  }
}

variable "health" {
  description = "The health check: its name (unique in the project), the server's readiness path on its port over HTTP (type TCP: only a connection to the port), every interval seconds, failing after failure_threshold misses, probed from exactly three Google Cloud regions."
  type = object({
    name              = string
    path              = string
    port              = number
    interval          = number
    failure_threshold = number
    regions           = list(string)
    type              = optional(string, "HTTP")
  })

  validation {
    condition     = length(var.health.regions) == 3
    error_message = "A health check with source regions (the kind Cloud DNS uses for external endpoints) takes exactly three."
  }

  validation {
    condition     = contains(["HTTP", "TCP"], var.health.type)
    error_message = "health.type is HTTP or TCP."
  }
}
