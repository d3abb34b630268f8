"""Parity of the model-server and scale-to-zero modules with the plain manifests."""
