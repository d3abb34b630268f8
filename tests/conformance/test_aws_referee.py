"""The real hashicorp/aws 5.100.0 provider referees the extracted aws rules: one root with a
block breaking each rule (tests/support/awsreferee.py), `terraform validate` must reject exactly
those blocks with a diagnostic stating the rule, and `gpuplat conformance` must flag the same
ones. A rule the real provider does not enforce is an extractor bug or a version difference
between 5.100.0 and the commit a file was read at; the latter are listed under `excluded`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gpuplat.conformance import load_schemas
from gpuplat.conformance.checker import check
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.rulecheck import RuleChecker, load_bundled
from gpuplat.conformance.ruleeval import RULES_DIR
from tests.support import awsreferee
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
RULES = RULES_DIR / "aws-5.100.0.json"


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


def _rejections(text: str, diagnostics: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Error messages per block address (``type.name`` / ``data.type.name``)."""
    lines = text.splitlines()
    out: dict[str, list[str]] = {}
    for diag in diagnostics:
        line = diag.get("range", {}).get("start", {}).get("line", 0)
        found = re.findall(r'(resource|data) "(\w+)" "(\w+)"', "\n".join(lines[:line]))
        if diag["severity"] == "error" and found:
            kind, type_name, name = found[-1]
            address = ("data." if kind == "data" else "") + f"{type_name}.{name}"
            out.setdefault(address, []).append(f"{diag['summary']}: {diag.get('detail', '')}")
    return out


def test_the_real_aws_provider_rejects_each_block_the_rules_say_it_rejects(
    tmp_path: Path,
) -> None:
    """Every rule of aws-5.100.0.json, one block each, in one `terraform validate`: the real
    provider rejects exactly the rule blocks (the control block of each type passes), each with
    a diagnostic stating that rule; conformance flags the same blocks."""
    cases = list(awsreferee.cases(RULES))
    doc = json.loads(RULES.read_text())
    total = sum(len(entry["rules"]) for entry in doc["types"].values())
    unbreakable = awsreferee.unbreakable(RULES)
    assert len([c for c, _ in cases if c.rule is not None]) + len(unbreakable) == total
    for _, rule in unbreakable:  # an unanchored starred pattern: every value matches
        assert rule["check"] == "regex" and re.fullmatch(r"\[[^]]*\]\*", rule["pattern"])
    text = HEADER + "\n".join(block for _, block in cases)
    root = tmp_path / "root"
    root.mkdir()
    (root / "main.tf").write_text(text)
    assert _terraform(root, "init", "-backend=false", "-input=false").returncode == 0
    done = _terraform(root, "validate", "-json")
    rejected = _rejections(text, json.loads(done.stdout)["diagnostics"])
    expected = {c.address for c, _ in cases if c.rule is not None}
    assert set(rejected) == expected, set(rejected) ^ expected
    disagreeing = {
        c.address: (c.rule, rejected[c.address])
        for c, _ in cases
        if c.rule is not None and not awsreferee.agrees(c.rule, rejected[c.address])
    }
    assert disagreeing == {}
    report = check([root], load_schemas(BUNDLED), RuleChecker(load_bundled()))
    flagged = {v.address for v in report.violations if v.code.startswith("rule-")}
    assert flagged == expected


def test_the_excluded_rules_are_ones_the_real_provider_does_not_enforce_as_read() -> None:
    """Each excluded rule names why; the data keeps none of them among its rules."""
    doc = json.loads(RULES.read_text())
    assert len(doc["excluded"]) == 8
    for item in doc["excluded"]:
        assert item["reason"] and item["rule"] not in doc["types"][item["type"]]["rules"]


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
