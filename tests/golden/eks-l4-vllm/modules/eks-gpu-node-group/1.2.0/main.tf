# gpuplat module eks-gpu-node-group 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  full_name      = "${var.cluster_name}-${var.name}"
  bottlerocket   = startswith(var.ami_type, "BOTTLEROCKET")
  capacity_block = var.capacity.type == "CAPACITY_BLOCK"
  gp3            = var.disk.type == "gp3"
  iops           = var.disk.iops != null ? var.disk.iops : (local.gp3 || startswith(var.disk.type, "io") ? 3000 : null)

  # Nothing without a GPU toleration may land on a GPU node. EKS does not add this taint by
  # itself (GKE does).
  # Bottlerocket's NVIDIA variants run their own device plugin; time-slicing is one of its
  # settings (TOML user data, merged by EKS with its own bootstrap settings). rename-by-default
  # false keeps the resource name nvidia.com/gpu, which the workloads and the tags above use.
  bottlerocket_user_data = local.bottlerocket && var.bottlerocket_time_slicing != null ? join("\n", [
    "[settings.kubelet-device-plugins.nvidia]",
    "device-sharing-strategy = \"time-slicing\"",
    "",
    "[settings.kubelet-device-plugins.nvidia.time-slicing]",
    "replicas = ${var.bottlerocket_time_slicing}",
    "rename-by-default = false",
    "fail-requests-greater-than-one = false",
    "",
  ]) : null

  taints = concat(
    [{ key = "nvidia.com/gpu", value = "present", effect = "NO_SCHEDULE" }],
    [for t in var.taints : t if !(t.key == "nvidia.com/gpu" && t.effect == "NO_SCHEDULE")],
  )
  kubernetes_effect = {
    NO_SCHEDULE        = "NoSchedule"
    PREFER_NO_SCHEDULE = "PreferNoSchedule"
    NO_EXECUTE         = "NoExecute"
  }
  advertised_gpus = var.advertised_gpus != null ? var.advertised_gpus : var.gpus_per_node
  efa_devices     = var.efa == null ? 0 : var.efa.interfaces
  own_efa_group   = try(var.efa.own_security_group, false)
  efa_group_id    = local.own_efa_group ? one(aws_security_group.efa[*].id) : try(var.efa.security_group_id, null)

  # At zero nodes there is no node to learn from: the cluster autoscaler reads what a new node
  # would have (labels, taints, and every resource a pod may request: GPUs, EFA devices,
  # ephemeral storage) from these tags on the autoscaling group. A resource a pending pod
  # requests that no tag names makes the template node "insufficient" and the group never
  # scales from zero.
  template_prefix = "k8s.io/cluster-autoscaler/node-template"
  autoscaler_tags = merge(
    {
      "k8s.io/cluster-autoscaler/enabled"             = "true"
      "k8s.io/cluster-autoscaler/${var.cluster_name}" = "owned"
    },
    local.advertised_gpus > 0 ? { "${local.template_prefix}/resources/nvidia.com/gpu" = tostring(local.advertised_gpus) } : {},
    local.efa_devices > 0 ? { "${local.template_prefix}/resources/vpc.amazonaws.com/efa" = tostring(local.efa_devices) } : {},
    { for name, amount in var.template_resources : "${local.template_prefix}/resources/${name}" => amount },
    { for key, value in var.labels : "${local.template_prefix}/label/${key}" => value },
    # One tag per taint key: the first effect wins where a key is tainted twice.
    { for key, values in { for t in local.taints : t.key => "${t.value}:${local.kubernetes_effect[t.effect]}"... } : "${local.template_prefix}/taint/${key}" => values[0] },
  )
}

resource "aws_placement_group" "this" {
  count = var.compact_placement ? 1 : 0

  name     = local.full_name
  strategy = "cluster"

  tags = var.tags

  lifecycle {
    precondition {
      # EC2 launches reserved instances only into the placement group the reservation was
      # made in: a new group and a reservation never match (InsufficientInstanceCapacity).
      condition     = var.capacity.reservation_id == null
      error_message = "compact_placement creates a new cluster placement group, which no capacity reservation or Capacity Block was made in; drop compact_placement for reserved capacity."
    }
  }
}

# The node group's own EFA security group, unless the caller passes one (efa.own_security_group
# false and security_group_id, the cluster's shared one, which gpuplat always passes: EFA traffic
# flows only between interfaces of one self-referencing group). A bool decides, not whether the
# id is null: the id is unknown until the cluster's group exists, and count must be known.
resource "aws_security_group" "efa" {
  count = local.own_efa_group ? 1 : 0

  name_prefix = "${substr(local.full_name, 0, 200)}-efa-"
  description = "EFA traffic between the nodes of ${local.full_name} (managed by gpuplat)"
  vpc_id      = var.efa.vpc_id

  tags = merge(var.tags, { Name = "${local.full_name}-efa" })
}

# EFA needs a security group that allows all traffic to and from itself.
resource "aws_vpc_security_group_ingress_rule" "efa" {
  count = local.own_efa_group ? 1 : 0

  security_group_id            = aws_security_group.efa[0].id
  referenced_security_group_id = aws_security_group.efa[0].id
  ip_protocol                  = "-1"
  description                  = "EFA from the node group's own nodes"
}

resource "aws_vpc_security_group_egress_rule" "efa" {
  count = local.own_efa_group ? 1 : 0

  security_group_id            = aws_security_group.efa[0].id
  referenced_security_group_id = aws_security_group.efa[0].id
  ip_protocol                  = "-1"
  description                  = "EFA to the node group's own nodes"
}

resource "aws_launch_template" "this" {
  name_prefix = "${substr(local.full_name, 0, 98)}-"
  description = "GPU nodes ${var.name} of EKS cluster ${var.cluster_name} (managed by gpuplat)."
  # A new version rolls the node group; keep the default pointing at the newest.
  update_default_version = true
  # EKS takes a Capacity Block's instance type from the launch template only.
  instance_type = local.capacity_block ? var.instance_type : null
  user_data     = local.bottlerocket_user_data == null ? null : base64encode(local.bottlerocket_user_data)

  metadata_options {
    # IMDSv2 only, and one hop: pods (one hop further) cannot borrow the node's role;
    # they get their own through EKS Pod Identity.
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  block_device_mappings {
    # Bottlerocket keeps images and pod volumes on its second (data) volume.
    device_name = local.bottlerocket ? "/dev/xvdb" : "/dev/xvda"
    ebs {
      volume_size           = var.disk.size_gb
      volume_type           = var.disk.type
      iops                  = local.iops
      throughput            = local.gp3 ? coalesce(var.disk.throughput, 500) : null
      encrypted             = true
      delete_on_termination = true
    }
  }

  dynamic "network_interfaces" {
    for_each = var.efa == null ? [] : range(var.efa.interfaces)
    content {
      # The first card carries EFA with ENA (the node's IP traffic); the other cards only EFA,
      # which takes no VPC address (EC2 "EFA-only" interfaces, device index 0 of their card).
      network_card_index    = network_interfaces.value
      device_index          = network_interfaces.value == 0 || var.efa.efa_only ? 0 : 1
      interface_type        = network_interfaces.value > 0 && var.efa.efa_only ? "efa-only" : "efa"
      delete_on_termination = true
      # Every EFA interface needs the EFA group; the primary one also carries node traffic.
      security_groups = concat(
        network_interfaces.value == 0 ? var.efa.security_group_ids : [],
        [local.efa_group_id],
      )
    }
  }

  dynamic "placement" {
    for_each = var.compact_placement ? [aws_placement_group.this[0].name] : []
    content {
      group_name = placement.value
    }
  }

  dynamic "capacity_reservation_specification" {
    for_each = var.capacity.reservation_id == null ? [] : [var.capacity.reservation_id]
    content {
      capacity_reservation_target {
        capacity_reservation_id = capacity_reservation_specification.value
      }
    }
  }

  dynamic "instance_market_options" {
    # EC2 launches Capacity Block instances only with this market type.
    for_each = local.capacity_block ? ["capacity-block"] : []
    content {
      market_type = instance_market_options.value
    }
  }

  dynamic "tag_specifications" {
    # Provider default_tags never reach instances the node group's autoscaling group launches.
    for_each = toset(["instance", "volume", "network-interface"])
    content {
      resource_type = tag_specifications.value
      tags          = merge(var.tags, { Name = local.full_name })
    }
  }

  tags = var.tags
}

resource "aws_eks_node_group" "this" {
  cluster_name    = var.cluster_name
  node_group_name = var.name
  version         = var.kubernetes_version
  node_role_arn   = var.node_role_arn
  subnet_ids      = var.subnet_ids
  instance_types  = local.capacity_block ? null : concat([var.instance_type], var.extra_instance_types)
  ami_type        = var.ami_type
  capacity_type   = var.capacity.type

  scaling_config {
    min_size     = var.scaling.min_nodes
    max_size     = var.scaling.max_nodes
    desired_size = var.scaling.min_nodes
  }

  update_config {
    # Old nodes drained at once. EKS updates always surge first: it launches up to twice the
    # group's zones in new nodes (or max_unavailable, if larger), then drains the old ones; a
    # node not drained in 15 minutes fails the update (PodEvictionFailure). The new GPU nodes
    # cost and may not be available: gpuplat's plan summary warns when an update rolls nodes.
    max_unavailable = var.max_unavailable
  }

  launch_template {
    id      = aws_launch_template.this.id
    version = aws_launch_template.this.latest_version
  }

  labels = var.labels

  dynamic "taint" {
    for_each = local.taints
    content {
      key    = taint.value.key
      value  = taint.value.value
      effect = taint.value.effect
    }
  }

  timeouts {
    create = var.timeouts.create
    update = var.timeouts.update
    delete = var.timeouts.delete
  }

  # The instance type and the reservation live in the launch template; repeated here so a plan
  # of the node group alone says what it holds (gpuplat's plan summary counts GPUs by them).
  tags = merge(var.tags, {
    "gpuplat.dev/instance-type" = var.instance_type
    }, var.capacity.reservation_id == null ? {} : {
    "gpuplat.dev/capacity-reservation" = var.capacity.reservation_id
  })

  lifecycle {
    # The autoscaler owns the node count; Terraform owns the bounds.
    ignore_changes = [scaling_config[0].desired_size]

    precondition {
      condition     = var.capacity.type == "SPOT" || length(var.extra_instance_types) == 0
      error_message = "extra_instance_types are for SPOT node groups; reservations and Capacity Blocks are of one instance type."
    }
  }
}

# EKS creates the autoscaling group and does not copy the node group's tags onto it.
resource "aws_autoscaling_group_tag" "autoscaler" {
  for_each = local.autoscaler_tags

  autoscaling_group_name = aws_eks_node_group.this.resources[0].autoscaling_groups[0].name

  tag {
    key                 = each.key
    value               = each.value
    propagate_at_launch = false
  }
}
