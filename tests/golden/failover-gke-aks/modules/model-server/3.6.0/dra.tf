# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

# Dynamic Resource Allocation (resource.k8s.io/v1, Kubernetes >= 1.34): the pod claims its
# GPUs through a ResourceClaimTemplate, and the Deployment is local.deployment (deployment.tf)
# applied as a manifest, because the typed kubernetes_deployment_v1 cannot express pod
# resourceClaims. Both kinds are built into Kubernetes, so planning needs no CRD, only the cluster.

resource "kubernetes_manifest" "gpu_claim_template" {
  count = var.gpu.dra ? 1 : 0

  manifest = {
    apiVersion = "resource.k8s.io/v1"
    kind       = "ResourceClaimTemplate"
    metadata   = { name = "${var.name}-gpu", namespace = kubernetes_namespace_v1.this.metadata[0].name, labels = var.labels }
    spec = {
      spec = {
        devices = {
          requests = [{
            name    = local.gpu_claim
            exactly = { deviceClassName = var.gpu.device_class, count = var.gpu.count }
          }]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "deployment" {
  count = var.gpu.dra && var.group == null ? 1 : 0

  manifest = local.deployment

  field_manager {
    force_conflicts = true
  }

  # The autoscaler owns the replica count once the Deployment exists.
  computed_fields = ["spec.replicas"]

  depends_on = [kubernetes_manifest.gpu_claim_template]
}
