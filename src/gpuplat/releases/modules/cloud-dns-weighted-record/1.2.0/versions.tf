# gpuplat module cloud-dns-weighted-record 1.2.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

terraform {
  required_version = ">= 1.6"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 6.50, < 8"
    }
  }
}
