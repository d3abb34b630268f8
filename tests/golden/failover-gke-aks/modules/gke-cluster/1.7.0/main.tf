# gpuplat module gke-cluster 1.7.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # Just enough for nodes to log, report metrics, feed the autoscaler and pull images; image
  # streaming also needs the nodes to consume the Container File System API of the project.
  node_roles = toset(concat([
    "roles/artifactregistry.reader",
    "roles/autoscaling.metricsWriter",
    "roles/logging.logWriter",
    "roles/monitoring.metricWriter",
    "roles/monitoring.viewer",
    "roles/stackdriver.resourceMetadata.writer",
  ], var.image_streaming ? ["roles/serviceusage.serviceUsageConsumer"] : []))

  # A region is the first two parts of a zone (us-central1-a -> us-central1).
  region = join("-", slice(split("-", var.location), 0, 2))
  # Network tag of every node of the cluster, the target of the firewall rule below.
  node_tag = "${var.name}-gpuplat-node"
  private  = var.network.private_nodes
  # Private nodes have no public address: without Cloud NAT they pull nothing from the
  # internet (registry.k8s.io, nvcr.io, ghcr.io, huggingface.co).
  cloud_nat = local.private && var.network.cloud_nat
  # Zones of the node pools: the node locations, else GKE's default of three zones for a
  # regional cluster and the one zone of a zonal cluster.
  zone_count = (
    length(var.node_locations) > 0 ? length(var.node_locations) :
    length(split("-", var.location)) == 2 ? 3 : 1
  )
}

# Image streaming (GCFS) needs the Container File System API in the project. Left enabled when
# the cluster goes: other clusters of the project may use it.
resource "google_project_service" "container_filesystem" {
  count = var.image_streaming ? 1 : 0

  project            = var.project
  service            = "containerfilesystem.googleapis.com"
  disable_on_destroy = false
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
  #checkov:skip=CKV_GCP_65:Google Groups for RBAC needs a Google Workspace group named gke-security-groups@<domain>, which only the organisation can create; Kubernetes RBAC and IAM apply without it.
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

  # Dataplane V2 enforces NetworkPolicy without a separate add-on; multi-networking (the RDMA
  # interfaces of GPUDirect pods) needs it too.
  datapath_provider           = "ADVANCED_DATAPATH"
  enable_multi_networking     = var.rdma_network != null || var.gpu_networks != null || var.multi_networking
  enable_shielded_nodes       = true
  enable_intranode_visibility = true
  enable_legacy_abac          = false

  # The Calico network policy add-on stays off: Dataplane V2 enforces NetworkPolicy itself and
  # the two do not run together.
  network_policy {
    enabled = false
  }

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
    mode = "BASIC"
    # VULNERABILITY_BASIC is deprecated in the GKE API (basic workload vulnerability scanning is
    # no longer offered) and ENTERPRISE's advanced insights are being removed too.
    vulnerability_mode = "VULNERABILITY_DISABLED"
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

  # When GKE may upgrade and repair on its own: a node upgrade drains the GPU nodes.
  dynamic "maintenance_policy" {
    for_each = var.maintenance == null ? [] : [var.maintenance]
    content {
      dynamic "recurring_window" {
        for_each = maintenance_policy.value.window == null ? [] : [maintenance_policy.value.window]
        content {
          start_time = recurring_window.value.start_time
          end_time   = recurring_window.value.end_time
          recurrence = recurring_window.value.recurrence
        }
      }
      dynamic "maintenance_exclusion" {
        for_each = maintenance_policy.value.exclusions
        content {
          exclusion_name = maintenance_exclusion.value.name
          start_time     = maintenance_exclusion.value.start_time
          end_time       = maintenance_exclusion.value.end_time
          exclusion_options {
            scope = maintenance_exclusion.value.scope
          }
        }
      }
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
    # DCGM: GKE's own exporter of GPU metrics (for pools whose driver GKE installs).
    enable_components = concat(["SYSTEM_COMPONENTS"], var.dcgm_metrics ? ["DCGM"] : [])
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

  # GKE's autoscaler uses the minimum only when scaling down: the pool is created at it, the
  # same number of nodes in every zone. Afterwards the autoscaler owns the count.
  initial_node_count = ceil(var.system_pool.min_nodes / local.zone_count)

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
    tags            = [local.node_tag]
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

  depends_on = [google_project_iam_member.nodes, google_project_service.container_filesystem]

  lifecycle {
    ignore_changes = [initial_node_count]

    precondition {
      condition     = ceil(var.system_pool.min_nodes / local.zone_count) * local.zone_count <= var.system_pool.max_nodes
      error_message = "GKE creates the same number of system nodes in every zone: system_pool.min_nodes must fit max_nodes once rounded up to a multiple of the zone count."
    }
  }
}

# Cloud Router and Cloud NAT: outbound internet for private nodes (image registries, model hubs).
resource "google_compute_router" "nat" {
  count = local.cloud_nat ? 1 : 0

  project = var.project
  name    = "${var.name}-nat"
  region  = local.region
  network = var.network.network
}

resource "google_compute_router_nat" "nat" {
  count = local.cloud_nat ? 1 : 0

  project                            = var.project
  name                               = "${var.name}-nat"
  router                             = google_compute_router.nat[0].name
  region                             = local.region
  nat_ip_allocate_option             = "AUTO_ONLY"
  source_subnetwork_ip_ranges_to_nat = "LIST_OF_SUBNETWORKS"

  subnetwork {
    name                    = "projects/${var.project}/regions/${local.region}/subnetworks/${var.network.subnetwork}"
    source_ip_ranges_to_nat = ["ALL_IP_RANGES"]
  }

  log_config {
    enable = true
    filter = "ERRORS_ONLY"
  }
}

# A private control plane reaches its nodes only on 443 and 10250. Admission webhooks and
# aggregated APIs of the add-ons listen elsewhere (KEDA's metrics API on 6443, the webhooks of
# KEDA, Kueue and LeaderWorkerSet on 9443): without this rule their API calls time out.
resource "google_compute_firewall" "webhooks" {
  count = local.private && length(var.webhook_ports) > 0 ? 1 : 0

  project       = var.project
  name          = "${var.name}-gpuplat-webhooks"
  network       = var.network.network
  description   = "Control plane of GKE cluster ${var.name} to its nodes on the add-ons' webhook ports (managed by gpuplat)."
  direction     = "INGRESS"
  source_ranges = [var.network.control_plane_cidr]
  target_tags   = [local.node_tag]

  allow {
    protocol = "tcp"
    ports    = [for p in var.webhook_ports : tostring(p)]
  }
}

# GPUDirect RDMA (var.rdma_network): a VPC with the RoCE network profile of the pools' zone and
# one subnet per GPU NIC. GPU pools attach every subnet as an additional node network; the
# platform stage names each subnet as a Kubernetes Network (GKENetworkParamSet, device mode RDMA)
# that the pods' networking.gke.io/interfaces annotation asks for. The profile's implicit
# firewall rules allow all traffic between the NICs.
resource "google_compute_network" "rdma" {
  count = var.rdma_network == null ? 0 : 1

  project                 = var.project
  name                    = var.rdma_network.name
  description             = "GPUDirect RDMA network of GKE cluster ${var.name} (managed by gpuplat)."
  network_profile         = var.rdma_network.profile
  mtu                     = var.rdma_network.mtu
  auto_create_subnetworks = false
  routing_mode            = "REGIONAL"
}

resource "google_compute_subnetwork" "rdma" {
  count = var.rdma_network == null ? 0 : length(var.rdma_network.subnets)

  project       = var.project
  name          = var.rdma_network.subnets[count.index].name
  region        = local.region
  network       = google_compute_network.rdma[0].id
  ip_cidr_range = var.rdma_network.subnets[count.index].cidr
}

# GPUDirect-TCPXO (var.gpu_networks): eight gVNIC VPCs with one subnet each, one per GPU NIC of
# A3 Mega (a VM has one interface in a VPC without an RDMA profile), as cluster-toolkit's
# multivpc module makes them, with a rule that lets the NICs of the nodes reach each other on
# every protocol (its enable_internal_traffic). The platform stage names each subnet as a
# Kubernetes Network (GKENetworkParamSet, device mode NetDevice).
resource "google_compute_network" "gpu" {
  count = var.gpu_networks == null ? 0 : length(var.gpu_networks.networks)

  project                 = var.project
  name                    = var.gpu_networks.networks[count.index].name
  description             = "GPUDirect-TCPXO network ${count.index} of GKE cluster ${var.name} (managed by gpuplat)."
  mtu                     = var.gpu_networks.mtu
  auto_create_subnetworks = false
  routing_mode            = "REGIONAL"
}

resource "google_compute_subnetwork" "gpu" {
  count = var.gpu_networks == null ? 0 : length(var.gpu_networks.networks)

  project       = var.project
  name          = var.gpu_networks.networks[count.index].subnet
  region        = local.region
  network       = google_compute_network.gpu[count.index].id
  ip_cidr_range = var.gpu_networks.networks[count.index].cidr
}

resource "google_compute_firewall" "gpu_internal" {
  count = var.gpu_networks == null ? 0 : length(var.gpu_networks.networks)

  project       = var.project
  name          = "${var.gpu_networks.networks[count.index].name}-internal"
  network       = google_compute_network.gpu[count.index].id
  direction     = "INGRESS"
  source_ranges = [var.gpu_networks.networks[count.index].cidr]

  allow {
    protocol = "all"
  }
}
