"""Vendoring into repositories on the current provider majors, and which roots' pins count.

The kubernetes provider 3.x cannot be installed here (no registry), so its check is against
its source: the types file in tests/vendoring/data was read from the provider's v3.2.1 tag.
What that cannot show: a 3.x-only validation rule on an attribute the modules set (the 3.0.0
changelog lists none for the types they use).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplat.errors import ExitCode
from gpuplat.releases.versions import latest, release_files
from gpuplat.render.roots import PROVIDERS
from gpuplat.vendoring.compat import module_pins
from gpuplat.vendoring.constraints import compatible
from tests.support.cli import run
from tests.vendoring.repos import INTO, ROOT, hand_call, make_repo

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "kubernetes-3.2.1-types.txt"
MODULES = sorted(p.name for p in (REPO / "templates" / "modules").iterdir() if p.is_dir())

CURRENT = {
    "registry.terraform.io/hashicorp/aws": "6.0.0",
    "registry.terraform.io/hashicorp/google": "7.0.0",
    "registry.terraform.io/hashicorp/azurerm": "4.79.0",
    "registry.terraform.io/hashicorp/helm": "3.0.2",
    "registry.terraform.io/hashicorp/kubernetes": "3.2.1",
}
"""The first release of each provider's current major (kubernetes: its newest, 3.2.1, whose
source the types file was read from). aws 6.0.0 (June 2025), google 7.0.0 (August 2025),
kubernetes 3.0.0 (December 2025, CHANGELOG.md of hashicorp/terraform-provider-kubernetes);
azurerm and helm have not changed major since the versions gpuplat's schemas were taken at."""


@pytest.mark.parametrize("module", MODULES)
def test_every_module_allows_the_current_major_of_each_provider_it_uses(module: str) -> None:
    pins = module_pins(latest(module))
    assert pins.providers
    for source, constraint in pins.providers.items():
        assert compatible(constraint, f"= {CURRENT[source]}", "provider"), (source, constraint)


def test_rendered_roots_allow_the_current_majors() -> None:
    for source, constraint in PROVIDERS.values():
        assert compatible(constraint, f"= {CURRENT['registry.terraform.io/' + source]}", "provider")


def test_the_kubernetes_types_the_modules_declare_are_in_3x_and_not_deprecated() -> None:
    types: dict[tuple[str, str], bool] = {}
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            kind, name, *rest = line.split()
            types[kind, name] = bool(rest)
    used = set()
    for module in MODULES:
        for name, text in release_files(latest(module)).items():
            if name.endswith(".tf"):
                used |= set(re.findall(r'^(resource|data) "(kubernetes_\w+)"', text, re.M))
    assert ("resource", "kubernetes_manifest") in used
    assert {u for u in used if u not in types} == set()
    assert {u for u in used if types[u]} == set(), "deprecated in 3.x"


KUBERNETES_3 = """\
terraform {
  required_providers {
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = "~> 3.0"
    }
  }
}
"""


def test_a_root_on_kubernetes_3_that_calls_the_modules_vendors(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / ROOT / "kubernetes.tf").write_text(KUBERNETES_3)
    server = latest("model-server").version
    hand_call(repo, ROOT, "model-server", server)
    result = run("vendor", repo, "--modules", "gpu-platform,model-server", "--into", INTO)
    assert result.exit_code == 0, result.stderr
    assert (repo / INTO / "model-server" / server / "main.tf").is_file()


def test_only_roots_that_call_the_modules_count_and_their_own_modules_with_them(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo")
    # A root of another team, on an old aws, that never calls gpuplat's modules: not checked.
    legacy = repo / "terraform/live/legacy"
    legacy.mkdir(parents=True)
    (legacy / "versions.tf").write_text(
        'terraform {\n  required_providers {\n    aws = "< 5.0"\n  }\n}\n'
    )
    cluster = latest("eks-cluster").version
    hand_call(repo, ROOT, "eks-cluster", cluster)
    assert run("vendor", repo, "--modules", "eks-cluster", "--into", INTO).exit_code == 0

    # A root that calls them through its own wrapper module: the wrapper's pin meets theirs.
    repo2 = make_repo(tmp_path / "repo2")
    wrapper = "terraform/modules/gpu-wrapper"
    hand_call(repo2, wrapper, "eks-cluster", cluster)
    (repo2 / wrapper / "versions.tf").write_text(
        'terraform {\n  required_providers {\n    aws = "< 5.0"\n  }\n}\n'
    )
    (repo2 / "terraform/live/dev").mkdir(parents=True)
    (repo2 / "terraform/live/dev/main.tf").write_text(
        'module "gpu" {\n  source = "../../modules/gpu-wrapper"\n}\n'
    )
    result = run("vendor", repo2, "--modules", "eks-cluster", "--into", INTO)
    assert result.exit_code == ExitCode.CONFLICT, result.stderr
    assert f"{wrapper}/versions.tf:3:11" in result.stderr
    assert "legacy" not in result.stderr and ROOT not in result.stderr


def test_a_repository_on_a_newer_major_is_not_told_to_downgrade(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", google="~> 8.0")
    hand_call(repo, ROOT, "gke-cluster", latest("gke-cluster").version)
    result = run("vendor", repo, "--modules", "gke-cluster", "--into", INTO)
    assert result.exit_code == ExitCode.CONFLICT, result.stderr
    hint = result.stderr.split("Hint:", 1)[1].lower() if "Hint:" in result.stderr else ""
    assert "newer major" in hint and "keep it" in hint, result.stderr
    assert "widen" not in hint and "downgrad" not in hint
