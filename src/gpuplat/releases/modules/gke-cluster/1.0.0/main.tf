# gpuplat module gke-cluster 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # Just enough for nodes to log, report metrics, feed the autoscaler and pull images.
  node_roles = toset([
    "roles/artifactregistry.reader",
    "roles/autoscaling.metricsWriter",
    "roles/logging.logWriter",
    "roles/monitoring.metricWriter",
    "roles/monitoring.viewer",
    "roles/stackdriver.resourceMetadata.writer",
  ])
}

resource "google_service_account" "nodes" {
  project      = var.project
  account_id   = "${substr(var.name, 0, 23)}-nodes"
  display_name = "GKE nodes of ${var.name}"
  description  = "Least-privilege identity of the nodes of GKE cluster ${var.name} (managed by gpuplat)."
}

resource "google_project_iam_member" "nodes" {
  for_each = local.node_roles

  project = var.project
  role    = each.value
  member  = "serviceAccount:${google_service_account.nodes.email}"
}

resource "google_container_cluster" "this" {
  project             = var.project
  name                = var.name
  location            = var.location
  node_locations      = length(var.node_locations) > 0 ? var.node_locations : null
  deletion_protection = var.deletion_protection
  min_master_version  = var.kubernetes_version
  resource_labels     = var.resource_labels

  # Node pools are managed as their own resources; the default pool only bootstraps the cluster.
  remove_default_node_pool = true
  initial_node_count       = 1

  network         = var.network.network
  subnetwork      = var.network.subnetwork
  networking_mode = "VPC_NATIVE"

  # Dataplane V2 enforces NetworkPolicy without a separate add-on.
  datapath_provider           = "ADVANCED_DATAPATH"
  enable_shielded_nodes       = true
  enable_intranode_visibility = true
  enable_legacy_abac          = false

  ip_allocation_policy {
    stack_type = "IPV4"
  }

  release_channel {
    channel = var.release_channel
  }

  workload_identity_config {
    workload_pool = "${var.project}.svc.id.goog"
  }

  master_auth {
    client_certificate_config {
      issue_client_certificate = false
    }
  }

  binary_authorization {
    evaluation_mode = "PROJECT_SINGLETON_POLICY_ENFORCE"
  }

  security_posture_config {
    mode               = "BASIC"
    vulnerability_mode = "VULNERABILITY_BASIC"
  }

  dynamic "private_cluster_config" {
    for_each = var.network.private_nodes ? [var.network.control_plane_cidr] : []
    content {
      enable_private_nodes    = true
      enable_private_endpoint = false
      master_ipv4_cidr_block  = private_cluster_config.value
    }
  }

  dynamic "master_authorized_networks_config" {
    for_each = length(var.network.authorized_networks) > 0 ? [var.network.authorized_networks] : []
    content {
      dynamic "cidr_blocks" {
        for_each = master_authorized_networks_config.value
        content {
          cidr_block   = cidr_blocks.value.cidr
          display_name = cidr_blocks.value.name
        }
      }
    }
  }

  addons_config {
    gcs_fuse_csi_driver_config {
      enabled = var.gcs_fuse_csi_driver
    }
    gce_persistent_disk_csi_driver_config {
      enabled = true
    }
    http_load_balancing {
      disabled = false
    }
    horizontal_pod_autoscaling {
      disabled = false
    }
  }

  cluster_autoscaling {
    # Scale idle nodes down sooner: an idle GPU node is the most expensive thing in the project.
    autoscaling_profile = "OPTIMIZE_UTILIZATION"
  }

  logging_config {
    enable_components = ["SYSTEM_COMPONENTS", "WORKLOADS"]
  }

  monitoring_config {
    enable_components = ["SYSTEM_COMPONENTS", "DCGM"]
    managed_prometheus {
      enabled = true
    }
  }

  node_config {
    service_account = google_service_account.nodes.email
    oauth_scopes    = ["https://www.googleapis.com/auth/cloud-platform"]
    shielded_instance_config {
      enable_secure_boot          = true
      enable_integrity_monitoring = true
    }
    workload_metadata_config {
      mode = "GKE_METADATA"
    }
  }

  lifecycle {
    # The bootstrap pool is removed after creation; its settings must not force a new cluster.
    ignore_changes = [node_config, initial_node_count]
  }
}

resource "google_container_node_pool" "system" {
  project  = var.project
  location = var.location
  cluster  = google_container_cluster.this.name
  name     = "system"

  autoscaling {
    total_min_node_count = var.system_pool.min_nodes
    total_max_node_count = var.system_pool.max_nodes
    location_policy      = "BALANCED"
  }

  management {
    auto_repair  = true
    auto_upgrade = true
  }

  node_config {
    machine_type    = var.system_pool.machine_type
    image_type      = "COS_CONTAINERD"
    disk_size_gb    = var.system_pool.disk_size_gb
    disk_type       = "pd-balanced"
    service_account = google_service_account.nodes.email
    oauth_scopes    = ["https://www.googleapis.com/auth/cloud-platform"]
    resource_labels = var.resource_labels
    labels = {
      "gpuplat.dev/role" = "system"
    }
    metadata = {
      disable-legacy-endpoints = "true"
    }
    shielded_instance_config {
      enable_secure_boot          = true
      enable_integrity_monitoring = true
    }
    workload_metadata_config {
      mode = "GKE_METADATA"
    }
  }

  depends_on = [google_project_iam_member.nodes]
}
