"""Fidelity checks that run the real terraform against the real provider schemas."""
