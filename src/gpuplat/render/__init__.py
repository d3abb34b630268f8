"""Rendering of a validated spec into Terraform (HCL) text."""
