"""The EKS modules against the next aws major, 6.x, which only a schema can check here.

The machine's filesystem mirror holds the real hashicorp/aws 5.100.0 only, so 6.x cannot be
initialised, validated or planned. ``tests/data/provider-schemas/aws-6.25.0.json`` is the 6.25.0
schema of every aws type the templates use, written by ``scripts/aws6_schema.py`` from cdktf's
bindings for that provider release (generated from ``terraform providers schema -json``; see the
script for how to reproduce the file). One entry was added by hand, not by the script:
``aws_eks_addon_version`` (eks-cluster 1.2.0), its arguments as cdktn's bindings of aws 6.51.0
list them (addon_name and kubernetes_version required; id, most_recent, region optional). The
conformance checker reads the released modules and
a rendered example against it: every argument and block must exist, required ones be set.

What this does not show: behaviour changes without a schema change. Those were read in the
provider's 6.0 upgrade guide (website/docs/guides/version-6-upgrade.html.markdown): of the
types the modules use, it changes aws_eip (``vpc`` removed: the module sets ``domain``),
aws_eks_addon (``resolve_conflicts`` removed: the module sets the ``_on_create`` /
``_on_update`` pair) and aws_launch_template (Elastic GPU / Elastic Inference blocks removed:
not used). The modules' CHANGELOGs say the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.conformance import load_schemas
from gpuplat.conformance.checker import check
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.schema import ProviderSchemas
from gpuplat.releases.versions import latest, release_files
from tests.support.realparts import REPO

AWS6 = REPO / "tests" / "data" / "provider-schemas" / "aws-6.25.0.json"
MODULES = (
    "eks-cluster",
    "eks-gpu-node-group",
    "eks-managed-prometheus",
    "eks-network",
    "route53-weighted-record",
)

# Arguments the 6.0 upgrade guide says were removed, on types the modules use: 5.100 accepts
# them, 6.25 must not, or the schema file would not tell the majors apart.
REMOVED_IN_6 = """
resource "aws_eip" "nat" {
  vpc = true
}

resource "aws_eks_addon" "cni" {
  cluster_name      = "c"
  addon_name        = "vpc-cni"
  resolve_conflicts = "OVERWRITE"
}

resource "aws_launch_template" "gpu" {
  elastic_gpu_specifications {
    type = "eg1.medium"
  }
  elastic_inference_accelerator {
    type = "eia1.medium"
  }
}
"""


@pytest.fixture(scope="module")
def aws6() -> ProviderSchemas:
    """The vendored schemas with aws 6.25.0 in place of 5.100.0 (later files win)."""
    schemas = load_schemas(BUNDLED, [AWS6])
    assert schemas.providers["aws"].version == "6.25.0"
    return schemas


def _write(tmp: Path, name: str) -> Path:
    module = tmp / name
    module.mkdir()
    for file, text in release_files(latest(name)).items():
        if file.endswith(".tf"):
            (module / file).write_text(text, encoding="utf-8")
    return module


def test_the_schema_holds_every_aws_type_the_modules_use(aws6: ProviderSchemas) -> None:
    # The vendored 5.100.0 file is trimmed to the types the templates use.
    vendored = json.loads(next(BUNDLED.glob("aws-*.json")).read_text(encoding="utf-8"))
    trimmed = vendored["provider_schemas"]["registry.terraform.io/hashicorp/aws"]
    for kind, key in (("resource", "resource_schemas"), ("data", "data_source_schemas")):
        used = sorted(trimmed[key])
        assert used, kind
        missing = [name for name in used if aws6.lookup(kind, name) is None]
        assert missing == [], f"{kind} types with no 6.25.0 schema: {missing}"


@pytest.mark.parametrize("name", MODULES)
def test_released_module_conforms_to_aws_6(
    name: str, aws6: ProviderSchemas, tmp_path: Path
) -> None:
    module = _write(tmp_path, name)
    report = check([module], aws6)
    assert report.blocks > 0
    assert [str(v) for v in report.violations] == []
    assert 'version = ">= 5.100, < 7"' in (module / "versions.tf").read_text()


def test_rendered_eks_example_conforms_to_aws_6(aws6: ProviderSchemas) -> None:
    example = REPO / "tests" / "golden" / "eks-l4-vllm"
    report = check([example / "envs", example / "modules"], aws6)
    assert report.files > 10
    assert [str(v) for v in report.violations] == []


def test_the_schema_tells_the_majors_apart(aws6: ProviderSchemas, tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(REMOVED_IN_6, encoding="utf-8")
    assert [str(v) for v in check([tmp_path], load_schemas(BUNDLED)).violations] == []
    found = " ".join(str(v) for v in check([tmp_path], aws6).violations)
    for removed in (
        "`vpc`",
        "`resolve_conflicts`",
        "`elastic_gpu_specifications`",
        "`elastic_inference_accelerator`",
    ):
        assert removed in found, found
