# gpuplat module traffic-manager-endpoint 1.0.0: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

terraform {
  required_version = ">= 1.6"

  required_providers {
    azurerm = {
      source  = "hashicorp/azurerm"
      version = ">= 4.79, < 5"
    }
  }
}
