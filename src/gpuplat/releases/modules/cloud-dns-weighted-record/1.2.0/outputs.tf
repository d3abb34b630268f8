# gpuplat module cloud-dns-weighted-record 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "weights" {
  description = "Per placement (workload@cluster): its weight in the record set."
  value       = { for key, p in var.placements : key => p.weight }
}

output "name" {
  description = "The front door's name (with its trailing dot); null while no placement has an address, so no record set exists."
  value       = one(google_dns_record_set.this[*].name)
}
