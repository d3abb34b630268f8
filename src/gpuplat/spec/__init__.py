"""The platform spec: located YAML loading, typed models, overlays and semantic checks."""
