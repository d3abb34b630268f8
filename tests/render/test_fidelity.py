"""Rendered Terraform is real: fmt-clean by the real binary, conformant to the real schemas."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpuplat.app.init import list_examples
from gpuplat.conformance import check, load_schemas
from tests.support.cli import run
from tests.support.golden import GOLDEN
from tests.support.realparts import provider_schema_dir, terraform_bin, terraform_env
from tests.support.specs import DRA_CLUSTER_PATCH, GKE_LADDER_PATCH, OPERATOR_PATCH, project

EXAMPLES = [name for name, _ in list_examples()]


@pytest.mark.parametrize("example", EXAMPLES)
def test_rendered_tree_conforms_to_provider_schemas(example: str) -> None:
    # The vendored schemas hold every type the templates use (tests/conformance/test_vendored.py
    # compares the aws one with the real provider's): none may be left unchecked.
    schemas = load_schemas(provider_schema_dir())
    report = check([GOLDEN / example / "envs", GOLDEN / example / "modules"], schemas)
    assert report.violations == (), "\n".join(str(v) for v in report.violations)
    assert not [n for n in report.notes if n.code == "type-not-checked"]
    assert report.blocks > 0


@pytest.mark.terraform
def test_rendered_trees_are_terraform_fmt_clean(tmp_path: Path) -> None:
    done = subprocess.run(
        [terraform_bin(), "fmt", "-check", "-recursive", "-list=true", str(GOLDEN)],
        capture_output=True,
        text=True,
        env=terraform_env(tmp_path),
        check=False,
    )
    assert done.returncode == 0, f"not fmt-clean:\n{done.stdout}{done.stderr}"


@pytest.mark.parametrize(
    ("name", "patches"),
    [("dra", DRA_CLUSTER_PATCH), ("operator", OPERATOR_PATCH), ("ladder", GKE_LADDER_PATCH)],
)
def test_variants_conform(name: str, patches: tuple[tuple[str, str], ...], tmp_path: Path) -> None:
    folder = project(tmp_path, patches)
    assert run("render", cwd=folder).exit_code == 0
    schemas = load_schemas(provider_schema_dir())
    report = check([folder / "envs", folder / "modules"], schemas)
    assert report.violations == (), "\n".join(str(v) for v in report.violations)
    assert not [n for n in report.notes if n.code == "type-not-checked"]
