# gpuplat module gke-weights-reader 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "member" {
  description = "The Workload Identity principal that may read the bucket."
  value       = local.member
}

output "bucket" {
  description = "The bucket it may read."
  value       = google_storage_bucket_iam_member.weights.bucket
}
