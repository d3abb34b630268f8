"""Version constraints: gpuplat's reading of them against the real terraform's."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpuplat.vendoring.constraints import ConstraintError, compatible, parse
from tests.eks.terraform import mirror_env
from tests.support.realparts import aws_provider_mirror, terraform_bin

AWS = "5.100.0"
"""The one aws provider version in the filesystem mirror."""


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [
        (">= 6.50, < 7", "< 6.0", False),
        (">= 6.50, < 7", ">= 6.0", True),
        ("~> 5.40", ">= 5.100, < 7", True),
        ("~> 5.40.0", ">= 5.100, < 7", False),
        ("= 1.2.3", "!= 1.2.3", False),
        ("> 1.2.3, < 1.2.5", "!= 1.2.4", False),
        ("> 1.2.3, < 1.2.6", "!= 1.2.4", True),
        ("~> 4", ">= 5.0", False),
        ("5", ">= 5.1", False),
    ],
)
def test_provider_constraints(a: str, b: str, ok: bool) -> None:
    assert compatible(a, b, "provider") is ok
    assert compatible(b, a, "provider") is ok


def test_a_single_part_pessimistic_constraint_differs_for_terraform_itself() -> None:
    assert not compatible("~> 1", ">= 2.0", "provider")
    assert compatible("~> 1", ">= 2.0", "terraform")


def test_malformed_constraints_are_refused() -> None:
    for text in ("", ">= x", "=> 1.0", "1.0 ||"):
        with pytest.raises(ConstraintError):
            parse(text, "provider")


def _init(tmp: Path, body: str) -> bool:
    root = tmp / str(abs(hash(body)))
    root.mkdir(parents=True)
    (root / "main.tf").write_text(body, encoding="utf-8")
    env = mirror_env(tmp / "env")
    env["TF_DATA_DIR"] = str(root / ".tfdata")
    done = subprocess.run(
        [terraform_bin(), "init", "-backend=false", "-input=false", "-no-color"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode == 0


@pytest.mark.terraform
@pytest.mark.parametrize(
    "constraint", ["~> 4", "~> 5", "5", "~> 5.0", "> 5.99, != 5.100.0", "~> 5.100.0"]
)
def test_provider_readings_match_terraform_init(constraint: str, tmp_path: Path) -> None:
    aws_provider_mirror()
    body = (
        'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n'
        f'      version = "{constraint}"\n    }}\n  }}\n}}\n'
    )
    # terraform installs the mirror's only version iff the constraint allows it.
    assert _init(tmp_path, body) is compatible(constraint, f"= {AWS}", "provider")


@pytest.mark.terraform
@pytest.mark.parametrize("constraint", ["~> 0", "~> 1", "~> 1.10", "~> 0.15", "< 1.10"])
def test_required_version_readings_match_terraform(constraint: str, tmp_path: Path) -> None:
    version = subprocess.run(
        [terraform_bin(), "version", "-json"], capture_output=True, text=True, check=True
    ).stdout
    running = __import__("json").loads(version)["terraform_version"]
    body = f'terraform {{\n  required_version = "{constraint}"\n}}\n'
    assert _init(tmp_path, body) is compatible(constraint, f"= {running}", "terraform")
