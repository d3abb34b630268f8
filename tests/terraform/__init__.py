"""Tests of the terraform seam: recorded streams and plans, and the real binary."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def read_fixture(name: str) -> str:
    """A recorded terraform output; re-record with tests/terraform/fixtures/record.py."""
    return (FIXTURES / name).read_text(encoding="utf-8")
