"""The real hashicorp/aws 5.100.0 provider referees the extracted aws rules: one root with a
block breaking each rule, `terraform validate` / `plan` must reject exactly those blocks, and
`gpuplat conformance` must flag the same ones. A rule the real provider does not enforce is an
extractor bug."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from gpuplat.conformance import load_schemas
from gpuplat.conformance.checker import check
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.rulecheck import RuleChecker, load_bundled
from gpuplat.conformance.ruleeval import RULES_DIR
from tests.support.realparts import aws_provider_mirror, terraform_bin, terraform_env

pytestmark = pytest.mark.terraform

HEADER = """
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}

provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
}
"""

POLICY = '"{\\"Version\\":\\"2012-10-17\\",\\"Statement\\":[]}"'


def _breaking(rule: dict[str, object]) -> str | None:
    """An argument line that breaks one extracted rule of aws_iam_role, or None."""
    path, check_kind = str(rule["path"]), rule["check"]
    if "." in path:
        return None
    if check_kind == "length" and rule.get("max") is not None:
        return f'{path} = "{"a" * (int(rule["max"]) + 1)}"'  # type: ignore[call-overload]
    if check_kind == "regex" and rule.get("match") and str(rule["pattern"]).startswith("^["):
        return f'{path} = "has space"'
    if check_kind == "regex" and not rule.get("match"):
        return f'{path} = "\u201cquoted\u201d"'
    if check_kind == "range":
        return f"{path} = {int(rule['max']) + 1}"  # type: ignore[call-overload]
    if check_kind == "format" and rule["format"] == "json":
        return f'{path} = "not json"'
    if check_kind == "conflicts_with":
        other = rule["paths"][0]  # type: ignore[index]
        return f'{path} = "a"\n  {other} = "b"'
    return None


def _root() -> tuple[str, dict[str, str]]:
    doc = json.loads((RULES_DIR / "aws-5.100.0.json").read_text())
    blocks, expected = [], {}
    for i, rule in enumerate(doc["types"]["resource.aws_iam_role"]["rules"]):
        line = _breaking(rule)
        if line is None:
            continue
        name = f"r{i}"
        policy = "" if rule["path"] == "assume_role_policy" else f"assume_role_policy = {POLICY}"
        blocks.append(f'resource "aws_iam_role" "{name}" {{\n  {line}\n  {policy}\n}}\n')
        expected[f"aws_iam_role.{name}"] = f"{rule['path']} {rule['check']}"
    return HEADER + "\n".join(blocks), expected


def _terraform(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = terraform_env(root.parent)
    rc = root.parent / "aws.tfrc"
    rc.write_text(
        "provider_installation {\n  filesystem_mirror {\n"
        f'    path    = "{aws_provider_mirror()}"\n'
        '    include = ["registry.terraform.io/hashicorp/aws"]\n  }\n}\n'
    )
    env["TF_CLI_CONFIG_FILE"] = str(rc)
    return subprocess.run(
        [terraform_bin(), *args, "-no-color"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_the_real_aws_provider_rejects_each_block_the_rules_say_it_rejects(
    tmp_path: Path,
) -> None:
    text, expected = _root()
    assert len(expected) >= 8  # every kind of rule the aws data holds is exercised
    root = tmp_path / "root"
    root.mkdir()
    (root / "main.tf").write_text(text)
    assert _terraform(root, "init", "-backend=false", "-input=false").returncode == 0
    done = _terraform(root, "validate", "-json")
    diagnostics = json.loads(done.stdout)["diagnostics"]
    lines = text.splitlines()
    rejected = set()
    for diag in diagnostics:
        line = diag.get("range", {}).get("start", {}).get("line", 0)
        before = "\n".join(lines[:line])
        found = re.findall(r'resource "aws_iam_role" "(\w+)"', before)
        if diag["severity"] == "error" and found:
            rejected.add(f"aws_iam_role.{found[-1]}")
    assert rejected == set(expected), {a: expected[a] for a in set(expected) ^ rejected}
    report = check([root], load_schemas(BUNDLED), RuleChecker(load_bundled()))
    flagged = {v.address for v in report.violations if v.code.startswith("rule-")}
    assert flagged == set(expected)


NAME = "inference-platform-prod-useast1-gpu-01"  # 38 characters


@pytest.mark.parametrize(("length", "refused"), [(32, True), (29, False)])
def test_a_long_cluster_name_plans_with_the_vpc_cni_role_prefix_of_eks_cluster_1_1_1(
    tmp_path: Path, length: int, refused: bool
) -> None:
    """The VPC CNI role's name_prefix, as eks-cluster 1.1.0 (32) and 1.1.1 (29) write it."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "main.tf").write_text(
        HEADER
        + f'variable "name" {{\n  type    = string\n  default = "{NAME}"\n}}\n'
        + 'resource "aws_iam_role" "cni" {\n'
        + f'  name_prefix        = "${{substr(var.name, 0, {length})}}-vpc-cni-"\n'
        + f"  assume_role_policy = {POLICY}\n}}\n"
    )
    assert _terraform(root, "init", "-backend=false", "-input=false").returncode == 0
    done = _terraform(root, "plan", "-input=false", "-refresh=false")
    assert (done.returncode != 0) == refused, done.stderr
    if refused:
        assert "expected length of name_prefix to be in the range (1 - 38)" in done.stderr


@pytest.mark.parametrize(("length", "refused"), [(100, True), (98, False)])
def test_a_long_node_group_name_plans_with_the_launch_template_prefix_of_1_1_1(
    tmp_path: Path, length: int, refused: bool
) -> None:
    """The launch template's name_prefix, as eks-gpu-node-group 1.1.0 (100) and 1.1.1 (98)."""
    root = tmp_path / "root"
    root.mkdir()
    full_name = f"{NAME}-{'h100-reserved-capacity-block-' * 3}pool"  # over 100 characters
    (root / "main.tf").write_text(
        HEADER
        + f'locals {{\n  full_name = "{full_name}"\n}}\n'
        + 'resource "aws_launch_template" "this" {\n'
        + f'  name_prefix = "${{substr(local.full_name, 0, {length})}}-"\n}}\n'
    )
    assert _terraform(root, "init", "-backend=false", "-input=false").returncode == 0
    done = _terraform(root, "plan", "-input=false", "-refresh=false")
    assert (done.returncode != 0) == refused, done.stderr
    if refused:
        assert '"name_prefix" cannot be longer than 99 characters' in done.stderr
