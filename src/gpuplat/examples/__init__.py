"""Example projects written by `gpuplat init` (package data)."""
