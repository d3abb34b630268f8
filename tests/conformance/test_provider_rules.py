"""Provider rules (ConflictsWith, validators, conditional requirements) in `gpuplat conformance`:
the fixture of every finding code, mutations of rendered golden trees, and the rule data's
coverage of every provider major the modules admit."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from gpuplat.conformance import load_schemas, ruleeval
from gpuplat.conformance.checker import check
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.report import Violation
from gpuplat.conformance.rulecheck import RuleChecker, load_bundled, value_of
from gpuplat.conformance.ruleeval import RULES_DIR, Bounded
from tests.support.realparts import REPO

FIXTURE = Path(__file__).parent / "fixtures" / "rules" / "main.tf"
GOLDEN = REPO / "tests" / "golden"

# Majors the module constraints admit whose rules could not be extracted here, and why: the
# test fails when this set is not exactly what is missing.
MISSING_MAJORS = {
    ("aws", 6): "the aws source read through the code index is a mix of 4.x to 6.36 commits, "
    "not one 6.x release, and no aws 6.x binary is here to referee it",
}


def _check(*paths: Path) -> list[Violation]:
    report = check(list(paths), load_schemas(BUNDLED), RuleChecker(load_bundled()))
    return [v for v in report.violations if v.code.startswith("rule-")]


def test_every_rule_code_of_the_fixture_is_found_at_its_line() -> None:
    found = {(v.line, v.code, v.address) for v in _check(FIXTURE)}
    assert found == {
        (9, "rule-conflicts-with", "azurerm_kubernetes_cluster_node_pool.both_upgrade_limits"),
        (10, "rule-conflicts-with", "azurerm_kubernetes_cluster_node_pool.both_upgrade_limits"),
        (15, "rule-regex", "azurerm_kubernetes_cluster_node_pool.spot_with_limits"),
        (19, "rule-required-with", "azurerm_kubernetes_cluster_node_pool.spot_with_limits"),
        (21, "rule-conditional", "azurerm_kubernetes_cluster_node_pool.spot_with_limits"),
        (23, "rule-range", "azurerm_kubernetes_cluster_node_pool.spot_with_limits"),
        (27, "rule-exactly-one-of", "azurerm_role_assignment.neither_role"),
        (33, "rule-length", "aws_iam_role.long_prefix"),
        (34, "rule-format", "aws_iam_role.long_prefix"),
        (52, "rule-at-least-one-of", "azurerm_kubernetes_cluster.rbac"),
        (60, "rule-enum", "google_container_node_pool.sometimes"),
    }


def test_a_message_names_the_limit_and_where_the_provider_declares_it() -> None:
    (length,) = [v for v in _check(FIXTURE) if v.code == "rule-length"]
    assert "can be 41 characters long" in length.message
    assert "1 to 38" in length.message
    assert "aws 5.100.0 internal/service/iam/role.go:" in length.message


def test_the_length_of_a_substr_template_is_bounded() -> None:
    assert value_of('"${substr(var.name, 0, 32)}-vpc-cni-"') == Bounded(9, 41)
    assert value_of('"${substr("${var.a}-${var.b}", 0, 37)}-"') == Bounded(1, 38)
    assert value_of('"/aws/eks/${var.name}/cluster"') == value_of("${var.name}")
    assert value_of('"plain"') == "plain"


def _mutate(tmp: Path, example: str, module: str, old: str, new: str) -> tuple[Path, int]:
    source = next((GOLDEN / example / "modules" / module).iterdir())
    copy = tmp / module
    shutil.copytree(source, copy)
    main = copy / "main.tf"
    text = main.read_text()
    assert text.count(old) == 1, f"{old!r} not once in {source}/main.tf"
    line = text[: text.index(old)].count("\n") + 1
    main.write_text(text.replace(old, new))
    return copy, line


@pytest.mark.parametrize(
    ("example", "module", "old", "new", "code", "address"),
    [
        (
            "aks-a100-vllm",
            "aks-gpu-node-pool",
            "max_unavailable          = upgrade_settings.value.max_unavailable",
            'max_unavailable          = "1"\n      max_surge = "1"',
            "rule-conflicts-with",
            "azurerm_kubernetes_cluster_node_pool.this",
        ),
        (
            "eks-l4-vllm",
            "eks-cluster",
            '"${substr(var.name, 0, 29)}-vpc-cni-"',
            '"${substr(var.name, 0, 32)}-vpc-cni-"',
            "rule-length",
            "aws_iam_role.cni",
        ),
        (
            "gke-l4-vllm",
            "gke-gpu-node-pool",
            "location_policy      = autoscaling.value.location_policy",
            'location_policy      = "SOMETIMES"',
            "rule-enum",
            "google_container_node_pool.this",
        ),
    ],
)
def test_a_violation_injected_into_a_rendered_module_is_found_located(
    tmp_path: Path, example: str, module: str, old: str, new: str, code: str, address: str
) -> None:
    source = next((GOLDEN / example / "modules" / module).iterdir())
    assert _check(source) == []  # the module as rendered passes
    mutated, line = _mutate(tmp_path, example, module, old, new)
    found = [(v.file.name, v.line, v.code, v.address) for v in _check(mutated)]
    assert ("main.tf", line, code, address) in found


def test_every_example_passes_the_provider_rules() -> None:
    assert _check(GOLDEN, REPO / "envs", REPO / "modules") == []


def _admitted_majors() -> set[tuple[str, int]]:
    """(provider, major) of every major a module's version constraint admits."""
    admitted = set()
    pattern = re.compile(
        r'(\w+)\s*=\s*{\s*source\s*=\s*"hashicorp/(\w+)"\s*version\s*=\s*"([^"]+)"'
    )
    for path in sorted((REPO / "templates" / "modules").glob("*/versions.tf.j2")):
        for _, name, constraint in pattern.findall(path.read_text()):
            low = int(re.search(r">=\s*(\d+)", constraint)[1])  # type: ignore[index]
            high = int(re.search(r"<\s*(\d+)", constraint)[1])  # type: ignore[index]
            admitted.update((name, major) for major in range(low, high))
    return admitted


def test_rules_were_extracted_for_every_provider_major_a_module_admits() -> None:
    extracted = set()
    for path in RULES_DIR.glob("*-[0-9]*.json"):
        name, version = path.stem.rsplit("-", 1)
        extracted.add((name, int(version.split(".")[0])))
    admitted = _admitted_majors()
    assert ("google", 7) in admitted and ("aws", 6) in admitted
    assert admitted - extracted == set(MISSING_MAJORS)


def test_rule_files_are_sorted_and_every_rule_names_its_source() -> None:
    for path in sorted(RULES_DIR.glob("*-[0-9]*.json")):
        doc = json.loads(path.read_text())
        assert (
            path.read_text() == json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        )
        assert doc["source"]["repository"].startswith("hashicorp/terraform-provider-")
        assert re.fullmatch(r"[0-9a-f]{40}", doc["source"]["commit"])
        assert doc["source"]["tag"] == f"v{doc['version']}"
        for entry in doc["types"].values():
            for rule in entry["rules"]:
                assert rule["file"].endswith(".go") and rule["line"] > 0, rule
    conditional = json.loads((RULES_DIR / "conditional.json").read_text())
    for rule in conditional["rules"]:
        assert set(rule["source"]) == {"repository", "tag", "commit", "file", "line"}


@pytest.mark.parametrize(
    ("spec", "value", "broken"),
    [
        ({"check": "format", "format": "cidr", "prefix": [16, 28]}, "10.0.0.0/16", False),
        ({"check": "format", "format": "cidr", "prefix": [16, 28]}, "10.0.0.0/15", True),
        ({"check": "format", "format": "cidr", "prefix": [16, 28]}, "10.0.0.0/29", True),
        ({"check": "format", "format": "cidr", "prefix": [16, 28]}, "10.0.0.1/16", True),
        ({"check": "format", "format": "cidr"}, "10.0.0.1/16", False),
        ({"check": "format", "format": "rfc3339"}, "2026-12-02T03:04:05Z", False),
        ({"check": "format", "format": "rfc3339"}, "2026-12-02T03:04:05.5+01:00", False),
        ({"check": "format", "format": "rfc3339"}, "2020-13-45", True),
        ({"check": "format", "format": "rfc3339"}, "2026-02-30T00:00:00Z", True),
    ],
)
def test_cidr_bounds_and_rfc3339_times_are_checked_as_the_sdk_checks_them(
    spec: dict[str, object], value: str, broken: bool
) -> None:
    """IsCIDRNetwork(min, max) wants a network address with a prefix in bounds; IsRFC3339Time
    wants time.RFC3339 (both seen refusing these values from the real aws provider)."""
    rule = ruleeval.Rule("v", dict(spec), ["aws 5.100.0"], "x.go:1")
    found = ruleeval.check(ruleeval.Obj({"v": value}), [rule])
    assert bool(found) == broken, found


K8S_BLOCK = """
resource "kubernetes_deployment_v1" "bad" {
  metadata {
    name = "Bad_Name"
  }
  spec {
    template {
      metadata {
        labels = { app = "x" }
      }
      spec {
        restart_policy                   = "Never"
        termination_grace_period_seconds = -1
        container {
          name  = "c"
          image = "i"
          port {
            container_port = 80
            host_port      = 0
          }
        }
      }
    }
  }
}
"""


def test_kubernetes_rules_from_k8s_api_constants_and_apimachinery_validators(
    tmp_path: Path,
) -> None:
    """restart_policy's values are k8s.io/api constants, metadata.name goes through
    apimachinery's DNS-subdomain check, host_port through IsValidPortNum, the grace period
    through the provider's own `v < 0` check: each is extracted, none left unresolved."""
    (tmp_path / "main.tf").write_text(K8S_BLOCK)
    found = {(v.code, v.message.split("`")[1]) for v in _check(tmp_path)}
    assert ("rule-enum", "restart_policy") in found
    assert ("rule-regex", "name") in found
    assert ("rule-range", "termination_grace_period_seconds") in found
    assert ("rule-range", "host_port") in found
    doc = json.loads((RULES_DIR / "kubernetes-2.38.0.json").read_text())
    left = [u["what"] for u in doc["unresolved"]]
    assert not [w for w in left if "StringInSlice" in w or w.endswith(("validateName",
                                                                       "validatePositiveInteger"))]  # fmt: skip
    assert set(doc["source"]["go_modules"]) == {"k8s.io/api", "k8s.io/apimachinery"}
