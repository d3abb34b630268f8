# gpuplat module gke-metrics-reader 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# The project number is part of every Workload Identity principal of the cluster's pool.
data "google_project" "this" {
  project_id = var.project
}

locals {
  # KEDA's operator service account itself is the principal (Workload Identity Federation for
  # GKE): no Google service account to impersonate and no key.
  member = join("/", [
    "principal://iam.googleapis.com/projects/${data.google_project.this.number}/locations/global",
    "workloadIdentityPools/${var.project}.svc.id.goog/subject/ns/${var.namespace}/sa/${var.service_account}",
  ])
}

# roles/monitoring.viewer is the read-only role the Managed Prometheus query API needs.
resource "google_project_iam_member" "query" {
  project = var.project
  role    = "roles/monitoring.viewer"
  member  = local.member
}
