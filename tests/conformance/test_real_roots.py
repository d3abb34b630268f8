"""`gpuplat conformance` on excerpts of two real public repositories with different conventions,
the real `terraform validate` (hashicorp/aws 5.100.0 from the mirror) as referee.

* alphagov/govuk-infrastructure: one root per deployment, security group rules written inline
  as `ingress {}` / `egress {}` blocks (attributes-as-blocks, which terraform accepts).
* ministryofjustice/opg-maintenance: a root passing aliased aws providers to a region module
  that declares them with `configuration_aliases` and puts every block on `aws.region`.

The excerpts are in tests/conformance/fixtures/real, each file naming its source and commit.
What the referee cannot show: an alias error terraform finds only at plan (none is known).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpuplat.conformance import check, load_schemas
from gpuplat.conformance.files import BUNDLED
from gpuplat.terraform import ValidateResult
from gpuplat.terraform.diagnostics import TerraformDiagnostic, diagnostic_from_json
from tests.eks.terraform import mirror_env, terraform, validate

pytestmark = pytest.mark.terraform

REAL = Path(__file__).parent / "fixtures" / "real"
GOVUK = "govuk-infrastructure"
OPG = "opg-maintenance"


def _copy(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(REAL / name, root)
    return root


def _edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` (there once) by ``new``; the 1-based line it started at."""
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return text[: text.index(old)].count("\n") + 1


def _gpuplat(root: Path) -> list[tuple[str, int, str]]:
    report = check([root], load_schemas(BUNDLED))
    return [(v.file.relative_to(root).as_posix(), v.line, v.code) for v in report.violations]


def _referee(root: Path, tmp_path: Path) -> ValidateResult:
    return validate(root, tmp_path / f"tf-{root.name}")


def _init_referee(root: Path, tmp_path: Path) -> list[TerraformDiagnostic]:
    """What the real ``terraform init -json`` says: it checks module calls' providers against
    their modules while installing them, before validate could run."""
    env = mirror_env(tmp_path / f"tf-{root.name}")
    env["TF_DATA_DIR"] = str(tmp_path / f"tf-{root.name}" / "data")
    done = terraform(["init", "-backend=false", "-input=false", "-json"], root, env)
    found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return [diagnostic_from_json(f["diagnostic"]) for f in found if "diagnostic" in f]


@pytest.mark.parametrize("name", [GOVUK, OPG])
def test_the_real_roots_are_valid_for_terraform_and_for_gpuplat(name: str, tmp_path: Path) -> None:
    root = _copy(tmp_path, name)
    assert _gpuplat(root) == []
    result = _referee(root, tmp_path)
    assert result.valid, result.errors


def test_inline_rules_are_still_checked_inside_their_blocks(tmp_path: Path) -> None:
    root = _copy(tmp_path, GOVUK)
    old = '"Port 443 from VPC"\n    from_port  '
    line = _edit(root / "vpc_endpoints.tf", old, old.replace("from_port ", "fromport  ")) + 1
    assert _gpuplat(root) == [("vpc_endpoints.tf", line, "unknown-attribute")]
    assert not _referee(root, tmp_path).valid


def test_a_provider_the_root_does_not_configure_is_found(tmp_path: Path) -> None:
    root = _copy(tmp_path, OPG)
    _edit(
        root / "regions.tf",
        'provider "aws" {\n  alias  = "management_eu_west_2"\n  region = "eu-west-2"\n}\n',
        "",
    )
    providers_line = (root / "regions.tf").read_text().splitlines().index("  providers = {") + 1
    assert _gpuplat(root) == [("regions.tf", providers_line, "undeclared-provider-alias")]
    result = _referee(root, tmp_path)
    assert not result.valid
    assert any("management_eu_west_2" in d.summary + d.detail for d in result.errors)


def test_an_alias_the_module_does_not_declare_is_found(tmp_path: Path) -> None:
    root = _copy(tmp_path, OPG)
    module = root / "modules" / "region" / "vpc_endpoints.tf"
    line = _edit(module, "  provider    = aws.region\n", "  provider    = aws.regoin\n")
    assert _gpuplat(root) == [
        ("modules/region/vpc_endpoints.tf", line, "undeclared-provider-alias")
    ]
    result = _referee(root, tmp_path)
    assert not result.valid
    assert any("regoin" in d.summary + d.detail for d in result.errors)


def test_a_call_that_omits_an_alias_the_module_declares_is_found_at_the_call(
    tmp_path: Path,
) -> None:
    """The region module declares `configuration_aliases = [aws.region, aws.management]`; a call
    that stops passing aws.management is refused by terraform at the module block."""
    root = _copy(tmp_path, OPG)
    _edit(root / "regions.tf", "    aws.management = aws.management_eu_west_2\n", "")
    call = (root / "regions.tf").read_text().splitlines().index('module "eu_west_2" {') + 1
    assert _gpuplat(root) == [("regions.tf", call, "missing-provider-alias")]
    said = _init_referee(root, tmp_path)
    assert [(d.severity, d.summary, d.line) for d in said] == [
        ("error", "Missing required provider configuration", call)
    ]
    assert '"aws.management"' in said[0].detail


def test_a_call_that_passes_an_alias_the_module_does_not_declare_is_found_at_its_entry(
    tmp_path: Path,
) -> None:
    """A mistyped key (aws.managment) passes a configuration to nothing and leaves the declared
    aws.management unpassed: two findings, each where terraform puts its diagnostic."""
    root = _copy(tmp_path, OPG)
    entry = _edit(
        root / "regions.tf",
        "    aws.management = aws.management_eu_west_2\n",
        "    aws.managment  = aws.management_eu_west_2\n",
    )
    call = (root / "regions.tf").read_text().splitlines().index('module "eu_west_2" {') + 1
    assert _gpuplat(root) == [
        ("regions.tf", call, "missing-provider-alias"),
        ("regions.tf", entry, "unexpected-provider-alias"),
    ]
    said = _init_referee(root, tmp_path)
    # terraform only warns about the key itself (hashicorp/aws is an official provider).
    assert sorted((d.severity, d.summary, d.line) for d in said) == [
        ("error", "Missing required provider configuration", call),
        ("warning", "Reference to undefined provider", entry),
    ]


def test_the_call_findings_of_the_alias_fixture_are_where_terraform_puts_its_own(
    tmp_path: Path,
) -> None:
    """tests/conformance/fixtures/aliases: an alias passed to nothing (terraform warns), one passed
    to an empty proxy block (accepted, not found), one the module declares but a call omits."""
    root = tmp_path / "aliases"
    shutil.copytree(REAL.parent / "aliases", root)
    found = [(f, line, code) for f, line, code in _gpuplat(root) if f == "main.tf"]
    assert found == [
        ("main.tf", 17, "unexpected-provider-alias"),
        ("main.tf", 22, "missing-provider-alias"),
    ]
    said = [d for d in _init_referee(root, tmp_path) if d.filename == "main.tf"]
    assert sorted((d.line, d.severity, d.summary) for d in said) == [
        (17, "warning", "Reference to undefined provider"),
        (22, "error", "Missing required provider configuration"),
    ]
