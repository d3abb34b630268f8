# gpuplat module gpu-platform 1.8.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

terraform {
  required_version = ">= 1.6"

  required_providers {
    helm = {
      source  = "hashicorp/helm"
      version = ">= 3.0, < 4"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38, < 4"
    }
  }
}
