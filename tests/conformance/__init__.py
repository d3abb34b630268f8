"""Tests for gpuplat.conformance."""
