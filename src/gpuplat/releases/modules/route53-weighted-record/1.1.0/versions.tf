# gpuplat module route53-weighted-record 1.1.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

terraform {
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.100, < 7"
    }
  }
}
