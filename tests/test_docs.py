"""The README's generated sections (spec reference, exit codes) match the code."""

from __future__ import annotations

from pathlib import Path

from gpuplat.docs import render_readme

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_generated_sections_are_current() -> None:
    current = README.read_text(encoding="utf-8")
    assert render_readme(current) == current, "README.md is stale: run `make docs` and commit"


def test_reference_covers_every_model_field() -> None:
    from gpuplat.docs import spec_reference

    text = spec_reference()
    for key in ("machine_type", "max_clients", "load_time_budget", "backend", "device_plugin"):
        assert f"| `{key}` |" in text
