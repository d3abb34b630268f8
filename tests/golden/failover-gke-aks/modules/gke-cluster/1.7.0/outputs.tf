# gpuplat module gke-cluster 1.7.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

output "name" {
  description = "Cluster name."
  value       = google_container_cluster.this.name
}

output "id" {
  description = "Cluster id (projects/P/locations/L/clusters/N)."
  value       = google_container_cluster.this.id
}

output "project" {
  description = "GCP project id."
  value       = var.project
}

output "location" {
  description = "Cluster location (region or zone)."
  value       = google_container_cluster.this.location
}

output "endpoint" {
  description = "Control-plane endpoint (host name or IP, without a scheme)."
  value       = google_container_cluster.this.endpoint
}

output "ca_certificate" {
  description = "Base64-encoded CA certificate of the control plane."
  value       = google_container_cluster.this.master_auth[0].cluster_ca_certificate
}

output "node_service_account" {
  description = "Email of the nodes' service account; GPU node pools run as it too. Known once its roles are granted (and image streaming's API is on), so pools created with it can pull images."
  value       = google_service_account.nodes.email
  depends_on  = [google_project_iam_member.nodes, google_project_service.container_filesystem]
}

output "node_tag" {
  description = "Network tag of the cluster's nodes (the target of its firewall rules); GPU node pools carry it too."
  value       = local.node_tag
}

output "cloud_nat" {
  description = "Name of the Cloud NAT that gives private nodes outbound internet, or null."
  value       = local.cloud_nat ? google_compute_router_nat.nat[0].name : null
}

output "workload_pool" {
  description = "Workload Identity pool of the cluster."
  value       = "${var.project}.svc.id.goog"
}

output "rdma_network" {
  description = "Name of the GPUDirect RDMA network (null without one)."
  value       = one(google_compute_network.rdma[*].name)
}

output "rdma_subnetworks" {
  description = "Names of the RDMA subnets, in NIC order (empty without an RDMA network)."
  value       = google_compute_subnetwork.rdma[*].name
}

output "gpu_networks" {
  description = "Names of the GPUDirect-TCPXO networks, in NIC order (empty without them)."
  value       = google_compute_network.gpu[*].name
}

output "gpu_subnetworks" {
  description = "Names of the GPUDirect-TCPXO subnets, in NIC order (empty without them)."
  value       = google_compute_subnetwork.gpu[*].name
}
