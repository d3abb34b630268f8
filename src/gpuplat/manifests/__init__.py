"""Plain Kubernetes manifests of the serving workloads and add-on configs (review, GitOps)."""
