"""How a model server runs: startup budget, rollout, resources, placement, weights.

Pure arithmetic and decisions on the validated spec, shared by the Terraform module arguments
and the plain Kubernetes manifests so both say the same thing.
"""
