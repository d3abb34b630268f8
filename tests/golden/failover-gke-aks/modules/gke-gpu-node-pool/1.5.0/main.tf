# gpuplat module gke-gpu-node-pool 1.5.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  # GKE taints GPU nodes with nvidia.com/gpu=present:NoSchedule by itself. Declaring the same
  # taint here keeps Terraform's view equal to the node pool's, so plans show no perpetual diff.
  taints = concat(
    [{ key = "nvidia.com/gpu", value = "present", effect = "NO_SCHEDULE" }],
    [for t in var.taints : t if t.key != "nvidia.com/gpu"],
  )

  reservation_affinity = {
    RESERVATION = var.capacity.reservation == null ? "ANY_RESERVATION" : "SPECIFIC_RESERVATION"
    # Flex-start and queued provisioning obtain capacity on their own and must not consume
    # reservations.
    FLEX_START = "NO_RESERVATION"
    QUEUED     = "NO_RESERVATION"
  }
  reservation_name = (
    var.capacity.reservation == null ? null :
    var.capacity.reservation_project == null ? var.capacity.reservation :
    "projects/${var.capacity.reservation_project}/reservations/${var.capacity.reservation}"
  )
  starts_empty = contains(["FLEX_START", "QUEUED"], var.capacity.type)

  # GKE creates initial_node_count (or node_count) nodes in every zone of the pool, and its
  # autoscaler uses the minimum only when scaling down: a pool created below its minimum stays
  # there. So the pool is created at its minimum, spread over its zones.
  zone_count = coalesce(var.zone_count, var.node_locations == null ? 1 : length(var.node_locations))
  min_per_zone = (
    var.autoscaling.per_zone ? var.autoscaling.min_nodes :
    ceil(var.autoscaling.min_nodes / local.zone_count)
  )
  # min = max: a fixed pool (cluster-toolkit's static_node_count), node_count and no autoscaling.
  fixed = !local.starts_empty && var.autoscaling.min_nodes > 0 && var.autoscaling.min_nodes == var.autoscaling.max_nodes
}

resource "google_container_node_pool" "this" {
  project        = var.project
  location       = var.location
  cluster        = var.cluster
  name           = var.name
  node_locations = var.node_locations

  # Start at the lower bound, in every zone; afterwards the autoscaler owns the node count
  # (node_count is computed, so leaving it unset shows no diff when the autoscaler moves it).
  # The provider refuses initial_node_count and node_count together.
  initial_node_count = local.fixed ? null : (local.starts_empty ? 0 : local.min_per_zone)
  node_count         = local.fixed ? local.min_per_zone : null

  dynamic "autoscaling" {
    for_each = local.fixed ? [] : [var.autoscaling]
    content {
      min_node_count       = autoscaling.value.per_zone ? autoscaling.value.min_nodes : null
      max_node_count       = autoscaling.value.per_zone ? autoscaling.value.max_nodes : null
      total_min_node_count = autoscaling.value.per_zone ? null : autoscaling.value.min_nodes
      total_max_node_count = autoscaling.value.per_zone ? null : autoscaling.value.max_nodes
      location_policy      = autoscaling.value.location_policy
    }
  }

  management {
    # Flex-start nodes are reclaimed at max_run_duration; repairing them would fight that.
    auto_repair  = var.capacity.type != "FLEX_START"
    auto_upgrade = var.auto_upgrade
  }

  # GKE upgrades flex-start and queued pools with its SHORT_LIVED strategy; a SURGE block here
  # would differ from what GKE reports on every plan, so those pools leave it to GKE.
  dynamic "upgrade_settings" {
    for_each = local.starts_empty ? [] : [var.upgrade]
    content {
      strategy        = "SURGE"
      max_surge       = upgrade_settings.value.max_surge
      max_unavailable = upgrade_settings.value.max_unavailable
    }
  }

  dynamic "placement_policy" {
    for_each = var.compact_placement.enabled ? [var.compact_placement] : []
    content {
      type        = "COMPACT"
      policy_name = placement_policy.value.policy_name
    }
  }

  # GPUDirect RDMA: an interface on each RDMA subnet (provider node_config.go:
  # network_config.additional_node_network_configs, ForceNew). Without them the block is left
  # out, so pools without additional networks plan as before.
  dynamic "network_config" {
    for_each = length(var.additional_node_networks) > 0 ? [var.additional_node_networks] : []
    content {
      dynamic "additional_node_network_configs" {
        for_each = network_config.value
        content {
          network    = additional_node_network_configs.value.network
          subnetwork = additional_node_network_configs.value.subnetwork
        }
      }
    }
  }

  dynamic "queued_provisioning" {
    for_each = var.capacity.type == "QUEUED" ? [true] : []
    content {
      enabled = true
    }
  }

  node_config {
    machine_type     = var.machine_type
    image_type       = var.image_type
    disk_size_gb     = var.disk.size_gb
    disk_type        = var.disk.type
    spot             = var.capacity.type == "SPOT"
    flex_start       = var.capacity.type == "FLEX_START" ? true : null
    max_run_duration = var.capacity.max_run_duration
    service_account  = var.service_account
    oauth_scopes     = ["https://www.googleapis.com/auth/cloud-platform"]
    labels           = var.labels
    resource_labels  = var.resource_labels
    tags             = var.network_tags
    metadata = {
      disable-legacy-endpoints = "true"
    }

    # Local SSDs striped by GKE hold the kubelet's and containerd's directories: emptyDirs and
    # the Cloud Storage FUSE file caches of every replica on the node are written there instead
    # of through the boot disk, whose throughput they would share (provider node_config.go:
    # ephemeral_storage_local_ssd_config, ForceNew).
    dynamic "ephemeral_storage_local_ssd_config" {
      for_each = var.disk.local_ssd_count == null ? [] : [var.disk.local_ssd_count]
      content {
        local_ssd_count = ephemeral_storage_local_ssd_config.value
      }
    }

    # Preloaded images or data (provider node_config.go: secondary_boot_disks, at most 127,
    # ForceNew; GKE "Use secondary boot disks to preload data or container images").
    dynamic "secondary_boot_disks" {
      for_each = var.secondary_boot_disks
      content {
        disk_image = secondary_boot_disks.value.disk_image
        mode       = secondary_boot_disks.value.mode
      }
    }

    guest_accelerator {
      type               = var.accelerator.type
      count              = var.accelerator.count
      gpu_partition_size = var.accelerator.partition_size

      gpu_driver_installation_config {
        gpu_driver_version = var.accelerator.driver_version
      }

      dynamic "gpu_sharing_config" {
        for_each = var.accelerator.sharing == null ? [] : [var.accelerator.sharing]
        content {
          gpu_sharing_strategy       = gpu_sharing_config.value.strategy
          max_shared_clients_per_gpu = gpu_sharing_config.value.max_clients
        }
      }
    }

    dynamic "taint" {
      for_each = local.taints
      content {
        key    = taint.value.key
        value  = taint.value.value
        effect = taint.value.effect
      }
    }

    dynamic "reservation_affinity" {
      for_each = contains(keys(local.reservation_affinity), var.capacity.type) ? [local.reservation_affinity[var.capacity.type]] : []
      content {
        consume_reservation_type = reservation_affinity.value
        key                      = reservation_affinity.value == "SPECIFIC_RESERVATION" ? "compute.googleapis.com/reservation-name" : null
        values                   = reservation_affinity.value == "SPECIFIC_RESERVATION" ? [local.reservation_name] : null
      }
    }

    gcfs_config {
      enabled = var.image_streaming && var.image_type == "COS_CONTAINERD"
    }

    gvnic {
      enabled = true
    }

    shielded_instance_config {
      enable_secure_boot          = var.secure_boot
      enable_integrity_monitoring = true
    }

    workload_metadata_config {
      mode = "GKE_METADATA"
    }
  }

  lifecycle {
    # The autoscaler changes the node count; only the bounds belong to Terraform.
    ignore_changes = [initial_node_count]

    precondition {
      condition = (
        var.autoscaling.per_zone || local.starts_empty ||
        local.min_per_zone * local.zone_count <= var.autoscaling.max_nodes
      )
      error_message = "GKE creates the same number of nodes in every zone of the pool: min_nodes must fit max_nodes once rounded up to a multiple of the zone count."
    }
  }
}
