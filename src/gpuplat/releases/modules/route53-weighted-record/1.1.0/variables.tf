# gpuplat module route53-weighted-record 1.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "zone_id" {
  description = "The Route 53 hosted zone the records go in."
  type        = string
}

variable "name" {
  description = "The front door's name, which clients call (e.g. chat.example.com)."
  type        = string
}

variable "placement" {
  description = "The placement: its set identifier in the weighted group (workload@cluster) and the label of its own record, below the front door's name."
  type = object({
    set_identifier = string
    label          = string
  })
}

variable "address" {
  description = "Host name or IP of the placement's load balancer."
  type        = string
}

variable "weight" {
  description = "Weight of the placement's record: 0 while it is a standby (warm or cold), above 0 while it serves."
  type        = number

  validation {
    condition     = var.weight >= 0 && var.weight <= 255
    error_message = "Route 53 weights are 0..255."
  }
}

variable "ttl" {
  description = "TTL of the records, seconds: how long resolvers keep an answer after a failover."
  type        = number
}

variable "health" {
  description = "What the health check probes: the server's readiness path on its port, over HTTP (type TCP: only a connection to the port), every interval seconds (10 or 30), failing after failure_threshold misses."
  type = object({
    path              = string
    port              = number
    interval          = number
    failure_threshold = number
    type              = optional(string, "HTTP")
  })

  validation {
    condition     = contains([10, 30], var.health.interval)
    error_message = "Route 53 health checks run every 10 or 30 seconds."
  }

  validation {
    condition     = contains(["HTTP", "TCP"], var.health.type)
    error_message = "health.type is HTTP or TCP."
  }
}
