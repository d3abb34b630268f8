# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# A multi-host replica (var.group): a LeaderWorkerSet (leaderworkerset.x-k8s.io/v1, the CRD of
# kubernetes-sigs/lws, installed by the platform stage) whose groups of var.group.size pods, one
# per node, start, restart and roll out together. Leader and workers run local.pod_spec
# (deployment.tf), the pod a one-node replica runs, with their own commands; the leader alone
# serves HTTP, so it alone keeps the port and the probes. Planning it needs the CRD in the
# cluster (kubernetes_manifest reads the kind's schema from the API server).

locals {
  leader_only = ["ports", "startupProbe", "readinessProbe", "livenessProbe"]

  # The group's fabric may need capabilities (AKS InfiniBand: IPC_LOCK, to pin the memory RDMA
  # registers); every other capability stays dropped.
  group_security = var.group == null ? null : merge(
    local.server_security,
    length(var.group.capabilities) == 0 ? {} : { capabilities = merge(local.server_security.capabilities, { add = var.group.capabilities }) },
  )
  # Node directories the group's fabric needs (GKE GPUDirect RDMA: gIB's scripts), read-only.
  host_mounts = var.group == null ? [] : var.group.host_mounts
  group_server = merge(local.server, {
    volumeMounts = concat(local.server.volumeMounts, [for m in local.host_mounts : { name = m.name, mountPath = m.mount_path, readOnly = m.read_only }])
  })
  # A daemon of the group's fabric (GKE TCPXO: RxDM) beside the server: the last init container,
  # restarting (a native sidecar), so it starts before the server and stops after it. With a
  # startup probe, the kubelet starts the server only once the probe has passed.
  sidecar        = var.group == null ? null : var.group.sidecar
  sidecar_mounts = local.sidecar == null ? [] : local.sidecar.host_mounts
  group_inits = concat(local.init_containers, [for c in(local.sidecar == null ? [] : [local.sidecar]) : merge(
    {
      name          = c.name
      image         = c.image
      restartPolicy = "Always"
      command       = c.command
      volumeMounts  = [for m in c.host_mounts : { name = m.name, mountPath = m.mount_path, readOnly = m.read_only }]
    },
    length(c.env) == 0 ? {} : { env = [for k in sort(keys(c.env)) : { name = k, value = c.env[k] }] },
    length(c.capabilities) == 0 ? {} : { securityContext = { capabilities = { add = c.capabilities } } },
    c.startup_probe == null ? {} : { startupProbe = {
      exec                = { command = c.startup_probe.command }
      initialDelaySeconds = c.startup_probe.initial_delay_seconds
      periodSeconds       = c.startup_probe.period_seconds
      timeoutSeconds      = c.startup_probe.timeout_seconds
      failureThreshold    = c.startup_probe.failure_threshold
    } },
  )])
  group_volumes = concat(
    local.volumes,
    [for m in concat(local.host_mounts, local.sidecar_mounts) : { name = m.name, hostPath = { path = m.host_path } }],
  )

  group_pods = var.group == null ? null : {
    leader = merge(local.pod_spec, {
      containers = [merge(
        { for k, v in local.group_server : k => v if !contains(["command", "args"], k) },
        { command = var.group.leader_command, securityContext = local.group_security },
      )]
      volumes = local.group_volumes
    }, length(local.group_inits) == 0 ? {} : { initContainers = local.group_inits })
    worker = merge(local.pod_spec, {
      containers = [merge(
        { for k, v in local.group_server : k => v if !contains(concat(["command", "args"], local.leader_only), k) },
        { command = var.group.worker_command, securityContext = local.group_security },
      )]
      volumes = local.group_volumes
    }, length(local.group_inits) == 0 ? {} : { initContainers = local.group_inits })
  }

  queue = var.group == null ? null : var.group.queue
  # Kueue wants each flavor's resources in the order of coveredResources.
  covered = local.queue == null ? [] : sort(keys(local.queue.quotas))

  # A move holds an autoscaled set at the groups its sources serve (group.hold, set only by a
  # failover's floor) until they are down: the set then names its count and waits for it.
  held    = var.group == null ? false : var.group.autoscaled && var.group.hold > 0
  counted = var.group == null ? false : !var.group.autoscaled || local.held
  groups  = local.held ? var.group.hold : var.replicas.min

  pod_metadata = merge({ labels = var.pod.labels }, length(var.pod.annotations) == 0 ? {} : { annotations = var.pod.annotations })
}

resource "kubernetes_manifest" "group" {
  count = var.group == null ? 0 : 1

  manifest = {
    apiVersion = "leaderworkerset.x-k8s.io/v1"
    kind       = "LeaderWorkerSet"
    metadata = {
      name      = var.name
      namespace = kubernetes_namespace_v1.this.metadata[0].name
      # Kueue admits each group of a set that names a LocalQueue whole, or not at all.
      labels = local.queue == null ? var.labels : merge(var.labels, { "kueue.x-k8s.io/queue-name" = local.queue.local_queue })
    }
    # An autoscaled set leaves the count of groups to KEDA (through the set's scale
    # subresource): a count here would be forced back to replicas.min on every apply. Only a
    # move's hold (group.hold) names it, for the length of the move.
    spec = merge({ for k, v in { replicas = local.groups } : k => v if local.counted }, {
      startupPolicy = var.group.startup_policy
      rolloutStrategy = {
        type                       = "RollingUpdate"
        rollingUpdateConfiguration = { maxSurge = var.group.max_surge, maxUnavailable = var.group.max_unavailable }
      }
      leaderWorkerTemplate = {
        size           = var.group.size
        restartPolicy  = var.group.restart_policy
        leaderTemplate = { metadata = local.pod_metadata, spec = local.group_pods.leader }
        workerTemplate = { metadata = local.pod_metadata, spec = local.group_pods.worker }
      }
    })
  }

  # A hold is applied under a field manager of its own (otherwise the provider's, "Terraform"),
  # which keeps owning spec.replicas once the count is handed back: the next apply, under the
  # provider's manager and without the count, then leaves it as it is for KEDA. Had one manager
  # owned it alone, dropping it from the manifest would delete it, and the API server would
  # default the set to 1 group.
  field_manager {
    name            = local.held ? "gpuplat-hold" : null
    force_conflicts = true
  }

  # The apply returns once every group is ready, as the Deployment's waits for its rollout: the
  # set's controller counts a group ready when its leader and all its workers are, and updated
  # when they run the set's revision; both must reach the set's count (the provider's field
  # waiter matches each value against its regular expression). A cold standby runs no group
  # and an autoscaled set's count is KEDA's, so neither waits: their apply never blocks. A held
  # autoscaled set waits for its held groups (a move's target, before the sources go).
  dynamic "wait" {
    for_each = local.counted && local.groups > 0 ? [local.groups] : []
    content {
      fields = {
        "status.readyReplicas"   = "^${wait.value}$"
        "status.updatedReplicas" = "^${wait.value}$"
      }
    }
  }

  # Groups load their weights for as long as the Deployment's rollout may take; the provider's
  # own 10 minutes would end the apply of a group still loading.
  timeouts {
    create = "${var.rollout.progress_deadline_seconds + 60}s"
    update = "${var.rollout.progress_deadline_seconds + 60}s"
  }
}

# Gang admission (var.group.queue): Kueue's LeaderWorkerSet integration makes each group one
# Workload whose pods wait behind a scheduling gate until the whole group fits the ClusterQueue,
# which covers every resource the pods request (Kueue refuses a Workload asking for a resource
# its queue does not cover). Planning these needs Kueue's CRDs in the cluster.
# Topology-aware scheduling (queue.topology): Kueue places each group on nodes close together
# by the cloud's topology labels, which the flavor names; the pod templates carry the level
# they would rather share (var.pod.annotations).
# Kueue holds a Topology's levels immutable, and a topology-placed flavor's nodeLabels and
# topologyName: both are named after that content, so a change makes new objects. They are
# created before the old ones are destroyed: the new Topology, the new flavor, the ClusterQueue
# updated to name it, then the old flavor (Kueue's finalizer lets it go once no ClusterQueue
# names it) and the old Topology.
resource "kubernetes_manifest" "topology" {
  count = local.queue == null ? 0 : local.queue.topology == null ? 0 : 1

  manifest = {
    apiVersion = "kueue.x-k8s.io/v1beta2"
    kind       = "Topology"
    metadata   = { name = local.queue.topology.name, labels = var.labels }
    spec       = { levels = [for l in local.queue.topology.levels : { nodeLabel = l }] }
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "kubernetes_manifest" "flavor" {
  count = local.queue == null ? 0 : 1

  manifest = {
    apiVersion = "kueue.x-k8s.io/v1beta2"
    kind       = "ResourceFlavor"
    metadata   = { name = local.queue.flavor, labels = var.labels }
    spec = merge(
      { nodeLabels = local.queue.node_labels },
      local.queue.topology == null ? {} : { topologyName = local.queue.topology.name },
    )
  }

  depends_on = [kubernetes_manifest.topology]

  lifecycle {
    create_before_destroy = true
  }
}

resource "kubernetes_manifest" "cluster_queue" {
  count = local.queue == null ? 0 : 1

  manifest = {
    apiVersion = "kueue.x-k8s.io/v1beta2"
    kind       = "ClusterQueue"
    metadata   = { name = local.queue.cluster_queue, labels = var.labels }
    spec = {
      namespaceSelector = { matchLabels = { "kubernetes.io/metadata.name" = local.queue.namespace } }
      resourceGroups = [{
        coveredResources = local.covered
        flavors = [{
          name      = local.queue.flavor
          resources = [for r in local.covered : { name = r, nominalQuota = local.queue.quotas[r] }]
        }]
      }]
    }
  }

  depends_on = [kubernetes_manifest.flavor]
}

resource "kubernetes_manifest" "local_queue" {
  count = local.queue == null ? 0 : 1

  manifest = {
    apiVersion = "kueue.x-k8s.io/v1beta2"
    kind       = "LocalQueue"
    metadata   = { name = local.queue.local_queue, namespace = kubernetes_namespace_v1.this.metadata[0].name, labels = var.labels }
    spec       = { clusterQueue = local.queue.cluster_queue }
  }

  depends_on = [kubernetes_manifest.cluster_queue]
}
