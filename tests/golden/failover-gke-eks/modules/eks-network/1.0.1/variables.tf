# gpuplat module eks-network 1.0.1: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

variable "name" {
  description = "Name of the VPC (its Name tag); usually the cluster name."
  type        = string

  validation {
    condition     = can(regex("^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$", var.name))
    error_message = "name must be 1-100 letters, digits, - and _, starting with a letter or digit."
  }
}

variable "vpc_cidr" {
  description = "IPv4 CIDR of the VPC, /16 to /20. Each zone gets 1/8 of it as a private subnet; the last eighth holds the public subnets."
  type        = string

  validation {
    condition     = can(cidrhost(var.vpc_cidr, 0)) && try(tonumber(split("/", var.vpc_cidr)[1]) >= 16 && tonumber(split("/", var.vpc_cidr)[1]) <= 20, false)
    error_message = "vpc_cidr must be an IPv4 CIDR from /16 to /20, e.g. 10.0.0.0/16."
  }
}

variable "zones" {
  description = "Availability zones, 2 to 6 (EKS places its control plane in at least two)."
  type        = list(string)

  validation {
    condition     = length(var.zones) >= 2 && length(var.zones) <= 6 && length(distinct(var.zones)) == length(var.zones)
    error_message = "zones must list 2 to 6 distinct availability zones."
  }
}

variable "nat_gateways" {
  description = "single: one NAT gateway for every zone (cheaper; egress of every zone depends on the first). per_zone: one per zone."
  type        = string
  default     = "single"

  validation {
    condition     = contains(["single", "per_zone"], var.nat_gateways)
    error_message = "nat_gateways must be single or per_zone."
  }
}

variable "tags" {
  description = "Tags on every resource."
  type        = map(string)
  default     = {}
}
