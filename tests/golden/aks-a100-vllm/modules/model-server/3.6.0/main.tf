# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

resource "kubernetes_namespace_v1" "this" {
  metadata {
    name   = var.namespace
    labels = var.labels
  }
}

resource "kubernetes_service_account_v1" "this" {
  metadata {
    name        = var.name
    namespace   = kubernetes_namespace_v1.this.metadata[0].name
    labels      = var.labels
    annotations = var.service_account_annotations
  }
  automount_service_account_token = false
}

resource "kubernetes_priority_class_v1" "this" {
  metadata {
    name   = var.priority.name
    labels = var.labels
  }
  value             = var.priority.value
  preemption_policy = "PreemptLowerPriority"
  description       = "Priority of model server ${var.name} (managed by gpuplat)."
}

# local.deployment (deployment.tf) written field by field as the typed resource.
resource "kubernetes_deployment_v1" "this" {
  #checkov:skip=CKV_K8S_11:CPU is requested but deliberately not limited: CFS throttling stalls token generation and the GPU idles; memory is limited.
  #checkov:skip=CKV_K8S_14:The image is the caller's input; gpuplat validate warns about an image with neither a version tag nor a digest (an error with --strict).
  #checkov:skip=CKV_K8S_43:Tag or digest is the user's choice (the spec recommends a digest); a version tag is accepted.
  #checkov:skip=CKV_K8S_15:Kubernetes' default pull policy (IfNotPresent for a version tag or a digest) is kept: a restarted server reuses the multi-GB image on its node, even while the registry is unreachable.
  #checkov:skip=CKV_K8S_10:Requests are the required input var.resources (gpuplat's serving plan computes them); checkov cannot see them without a caller. The plain manifests, scanned with the same values (the parity test holds them equal), carry them.
  #checkov:skip=CKV_K8S_12:The memory limit is in the required input var.resources (= the memory request); see CKV_K8S_10.
  #checkov:skip=CKV_K8S_13:Memory requests are in the required input var.resources; see CKV_K8S_10.
  #checkov:skip=CKV_K8S_35:An environment value from a Secret key is the caller's explicit choice (e.g. HF_TOKEN, which model servers read from the environment); nothing is taken from a Secret otherwise.
  #checkov:skip=CKV_K8S_22:Model servers (vLLM, TGI, Triton, SGLang) write compile and kernel caches under their home directory; capabilities are dropped and privilege escalation is forbidden instead.
  count = var.gpu.dra || var.group != null ? 0 : 1

  metadata {
    name      = local.deployment.metadata.name
    namespace = local.deployment.metadata.namespace
    labels    = local.deployment.metadata.labels
  }

  spec {
    replicas = local.deployment.spec.replicas
    # Weights load for minutes: see the caller's rollout.progress_deadline_seconds.
    progress_deadline_seconds = local.deployment.spec.progressDeadlineSeconds
    revision_history_limit    = local.deployment.spec.revisionHistoryLimit

    selector {
      match_labels = local.deployment.spec.selector.matchLabels
    }

    strategy {
      type = local.deployment.spec.strategy.type
      dynamic "rolling_update" {
        for_each = var.rollout.strategy == "Recreate" ? [] : [var.rollout]
        content {
          max_surge       = tostring(rolling_update.value.max_surge)
          max_unavailable = tostring(rolling_update.value.max_unavailable)
        }
      }
    }

    template {
      metadata {
        labels      = var.pod.labels
        annotations = var.pod.annotations
      }

      spec {
        service_account_name             = local.pod_spec.serviceAccountName
        automount_service_account_token  = local.pod_spec.automountServiceAccountToken
        priority_class_name              = local.pod_spec.priorityClassName
        termination_grace_period_seconds = local.pod_spec.terminationGracePeriodSeconds
        node_selector                    = try(local.pod_spec.nodeSelector, null)

        security_context {
          fs_group = lookup(local.pod_context, "fsGroup", null)
          seccomp_profile {
            type = "RuntimeDefault"
          }
        }

        affinity {
          node_affinity {
            required_during_scheduling_ignored_during_execution {
              dynamic "node_selector_term" {
                for_each = local.node_affinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
                content {
                  dynamic "match_expressions" {
                    for_each = node_selector_term.value.matchExpressions
                    content {
                      key      = match_expressions.value.key
                      operator = match_expressions.value.operator
                      values   = match_expressions.value.values
                    }
                  }
                }
              }
            }
            # Earlier pools in the list win when several have room (e.g. on-demand before spot).
            dynamic "preferred_during_scheduling_ignored_during_execution" {
              for_each = try(local.node_affinity.preferredDuringSchedulingIgnoredDuringExecution, [])
              content {
                weight = preferred_during_scheduling_ignored_during_execution.value.weight
                preference {
                  dynamic "match_expressions" {
                    for_each = preferred_during_scheduling_ignored_during_execution.value.preference.matchExpressions
                    content {
                      key      = match_expressions.value.key
                      operator = match_expressions.value.operator
                      values   = match_expressions.value.values
                    }
                  }
                }
              }
            }
          }
        }

        dynamic "toleration" {
          for_each = var.placement.tolerations
          content {
            key      = toleration.value.key
            operator = toleration.value.operator
            value    = toleration.value.value
            effect   = toleration.value.effect
          }
        }

        dynamic "init_container" {
          for_each = local.init_containers
          content {
            name    = init_container.value.name
            image   = init_container.value.image
            command = init_container.value.command
            dynamic "env" {
              for_each = lookup(init_container.value, "env", [])
              content {
                name  = env.value.name
                value = env.value.value
              }
            }
            resources {
              requests = init_container.value.resources.requests
              limits   = init_container.value.resources.limits
            }
            # As local.init_security, written out so that scanners read it.
            security_context {
              allow_privilege_escalation = false
              capabilities {
                drop = ["ALL"]
              }
            }
            dynamic "volume_mount" {
              for_each = init_container.value.volumeMounts
              content {
                name       = volume_mount.value.name
                mount_path = volume_mount.value.mountPath
              }
            }
          }
        }

        container {
          name    = local.server.name
          image   = var.container.image
          command = var.container.command
          args    = var.container.args

          dynamic "port" {
            for_each = local.server.ports
            content {
              name           = port.value.name
              container_port = port.value.containerPort
            }
          }

          dynamic "env" {
            for_each = var.container.env
            content {
              name  = env.value.name
              value = env.value.value
              dynamic "value_from" {
                for_each = env.value.value == null ? [env.value] : []
                content {
                  dynamic "secret_key_ref" {
                    for_each = value_from.value.secret == null ? [] : [value_from.value.secret]
                    content {
                      name     = secret_key_ref.value.name
                      key      = secret_key_ref.value.key
                      optional = secret_key_ref.value.optional
                    }
                  }
                  dynamic "config_map_key_ref" {
                    for_each = value_from.value.config_map == null ? [] : [value_from.value.config_map]
                    content {
                      name     = config_map_key_ref.value.name
                      key      = config_map_key_ref.value.key
                      optional = config_map_key_ref.value.optional
                    }
                  }
                }
              }
            }
          }

          # GPUs are requested (= limited) here, as nvidia.com/gpu: this resource exists only
          # without DRA.
          resources {
            requests = var.resources.requests
            limits   = var.resources.limits
          }

          # The kubelet runs probes once the container has started: after the image pull and
          # the init container's copy. Until the startup probe passes, liveness is not
          # checked, so a server that is still loading its weights is never restarted.
          startup_probe {
            http_get {
              path = local.probes.startup.httpGet.path
              port = local.probes.startup.httpGet.port
            }
            period_seconds    = local.probes.startup.periodSeconds
            failure_threshold = local.probes.startup.failureThreshold
            timeout_seconds   = local.probes.startup.timeoutSeconds
          }

          # Traffic only reaches a replica that answers its health check.
          readiness_probe {
            http_get {
              path = local.probes.readiness.httpGet.path
              port = local.probes.readiness.httpGet.port
            }
            period_seconds    = local.probes.readiness.periodSeconds
            failure_threshold = local.probes.readiness.failureThreshold
            timeout_seconds   = local.probes.readiness.timeoutSeconds
          }

          liveness_probe {
            http_get {
              path = local.probes.liveness.httpGet.path
              port = local.probes.liveness.httpGet.port
            }
            period_seconds    = local.probes.liveness.periodSeconds
            failure_threshold = local.probes.liveness.failureThreshold
            timeout_seconds   = local.probes.liveness.timeoutSeconds
          }

          lifecycle {
            pre_stop {
              # Keep serving while the endpoint is removed from Services and load balancers.
              exec {
                command = local.server.lifecycle.preStop.exec.command
              }
            }
          }

          # As local.server_security, written out so that scanners read it; the parity test
          # holds both equal to the plain manifests.
          security_context {
            allow_privilege_escalation = false
            read_only_root_filesystem  = false
            capabilities {
              drop = ["ALL"]
            }
          }

          dynamic "volume_mount" {
            for_each = local.server.volumeMounts
            content {
              name       = volume_mount.value.name
              mount_path = volume_mount.value.mountPath
              read_only  = lookup(volume_mount.value, "readOnly", null)
              sub_path   = lookup(volume_mount.value, "subPath", null)
            }
          }
        }

        # In the order of local.volumes, as the manifest writes them.
        dynamic "volume" {
          for_each = local.volumes
          content {
            name = volume.value.name
            dynamic "empty_dir" {
              for_each = can(volume.value.emptyDir) ? [volume.value.emptyDir] : []
              content {
                medium     = lookup(empty_dir.value, "medium", null)
                size_limit = empty_dir.value.sizeLimit
              }
            }
            dynamic "csi" {
              for_each = can(volume.value.csi) ? [volume.value.csi] : []
              content {
                driver            = csi.value.driver
                read_only         = csi.value.readOnly
                volume_attributes = csi.value.volumeAttributes
              }
            }
          }
        }
      }
    }
  }

  # An apply returns once the new pods are ready (the provider's default, written out), or fails
  # when the Deployment reports it cannot progress. The provider's own 10 minute timeout would cut
  # short a rollout that waits for a GPU node and loads weights: it ends just after the caller's
  # progress deadline, so the Deployment's own verdict decides.
  wait_for_rollout = true
  timeouts {
    create = "${var.rollout.progress_deadline_seconds + 60}s"
    update = "${var.rollout.progress_deadline_seconds + 60}s"
  }

  lifecycle {
    # The autoscaler owns the replica count once the Deployment exists.
    ignore_changes = [spec[0].replicas]
  }
}

# A LoadBalancer when the caller asks for an address outside the cluster (the annotations are
# the cloud's, for an internal or an external load balancer); the apply waits until the cloud
# has given it an address (the provider's wait_for_load_balancer, true by default).
resource "kubernetes_service_v1" "this" {
  metadata {
    name        = var.name
    namespace   = kubernetes_namespace_v1.this.metadata[0].name
    labels      = var.labels
    annotations = var.load_balancer == null ? null : var.load_balancer.annotations
  }
  spec {
    type = var.load_balancer == null ? "ClusterIP" : "LoadBalancer"
    # A multi-host group serves through its leader.
    selector = var.group == null ? var.selector : var.group.service_selector
    port {
      name        = local.port_name
      port        = var.container.port
      target_port = local.port_name
    }
  }
}

# A capacity ladder's node pools may each grow to the ladder's whole cap; the quota holds the
# workload's GPUs to the cap, which no cloud adds up over several node pools.
resource "kubernetes_resource_quota_v1" "gpus" {
  count = var.gpu_quota == null ? 0 : 1

  metadata {
    name      = "${var.name}-gpus"
    namespace = kubernetes_namespace_v1.this.metadata[0].name
    labels    = var.labels
  }
  spec {
    hard = { "requests.nvidia.com/gpu" = tostring(var.gpu_quota) }
  }
}

resource "kubernetes_pod_disruption_budget_v1" "this" {
  metadata {
    name      = var.name
    namespace = kubernetes_namespace_v1.this.metadata[0].name
    labels    = var.labels
  }
  spec {
    max_unavailable = tostring(var.disruption.max_unavailable)
    selector {
      match_labels = var.selector
    }
  }
}
