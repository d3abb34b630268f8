# gpuplat module model-server 3.6.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

terraform {
  required_version = ">= 1.6"

  required_providers {
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38, < 4"
    }
  }
}
