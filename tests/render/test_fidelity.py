"""Rendered Terraform is real: fmt-clean by the real binary, conformant to the real schemas."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpuplat.app.init import list_examples
from gpuplat.conformance import check, load_schemas
from tests.conformance.test_checker import aws_schema  # noqa: F401  (a session fixture)
from tests.support.cli import run
from tests.support.golden import GOLDEN
from tests.support.realparts import provider_schema_dir, terraform_bin, terraform_env
from tests.support.specs import DRA_CLUSTER_PATCH, OPERATOR_PATCH, project

EXAMPLES = [name for name, _ in list_examples()]


def _uses_aws(example: str) -> bool:
    return any(
        "hashicorp/aws" in path.read_text(encoding="utf-8")
        for path in (GOLDEN / example / "envs").glob("*/*/infra/versions.tf")
    )


@pytest.mark.parametrize("example", EXAMPLES)
def test_rendered_tree_conforms_to_provider_schemas(
    example: str, request: pytest.FixtureRequest
) -> None:
    # The shared schemas have no aws: EKS examples are checked against the schema real
    # terraform reads from the aws provider in the filesystem mirror (tests/conformance).
    extra = [request.getfixturevalue("aws_schema")] if _uses_aws(example) else []
    schemas = load_schemas(provider_schema_dir(), extra)
    report = check([GOLDEN / example / "envs", GOLDEN / example / "modules"], schemas)
    assert report.violations == (), "\n".join(str(v) for v in report.violations)
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
    ("name", "patches"), [("dra", DRA_CLUSTER_PATCH), ("operator", OPERATOR_PATCH)]
)
def test_variants_conform(name: str, patches: tuple[tuple[str, str], ...], tmp_path: Path) -> None:
    folder = project(tmp_path, patches)
    assert run("render", cwd=folder).exit_code == 0
    schemas = load_schemas(provider_schema_dir())
    report = check([folder / "envs", folder / "modules"], schemas)
    assert report.violations == (), "\n".join(str(v) for v in report.violations)
