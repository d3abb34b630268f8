"""The rendered tree on disk: atomic writes, the render record, fingerprints and pending changes."""
