"""gpuplat: one declarative spec of a GPU platform, rendered to versioned Terraform."""

__version__ = "0.1.0"
