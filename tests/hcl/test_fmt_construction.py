"""Rendered roots are `terraform fmt` layout by construction (no formatting pass at runtime).

format_hcl is verified against the real `terraform fmt` in test_hclfmt.py; here every root of
every example and variant must already be what it would produce.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.app.init import list_examples
from gpuplat.hcl.fmt import format_hcl
from gpuplat.render.roots import render
from gpuplat.spec.load import load_project
from tests.support.specs import DRA_CLUSTER_PATCH, OPERATOR_PATCH, project

CASES = [(name, ()) for name, _ in list_examples()] + [
    ("gke-l4-vllm", DRA_CLUSTER_PATCH),
    ("gke-l4-vllm", OPERATOR_PATCH),
]


@pytest.mark.parametrize(
    ("example", "patches"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_roots_need_no_formatting(
    example: str, patches: tuple[tuple[str, str], ...], tmp_path: Path
) -> None:
    loaded = load_project(project(tmp_path, patches, example))
    rendered = render(loaded.envs.values())
    assert rendered.files
    for path, text in rendered.files.items():
        assert format_hcl(text) == text, f"{path} is not in terraform fmt layout"
