# gpuplat module gke-weights-reader 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# The project number is part of every Workload Identity principal of the cluster's pool.
data "google_project" "this" {
  project_id = var.project
}

locals {
  # The Kubernetes service account itself is the principal (Workload Identity Federation for
  # GKE): no Google service account to impersonate, no key, and the grant names one namespace
  # and one service account of this project's workload pool.
  member = join("/", [
    "principal://iam.googleapis.com/projects/${data.google_project.this.number}/locations/global",
    "workloadIdentityPools/${var.project}.svc.id.goog/subject/ns/${var.namespace}/sa/${var.service_account}",
  ])
}

resource "google_storage_bucket_iam_member" "weights" {
  bucket = var.bucket
  role   = "roles/storage.objectViewer"
  member = local.member
}
