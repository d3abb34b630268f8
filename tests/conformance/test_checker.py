"""Tests for the conformance checker against the real provider schemas."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpuplat.conformance import (
    CODES,
    ProviderSchemas,
    Violation,
    check,
    check_paths,
    find_schema_dir,
    load_schemas,
)
from gpuplat.conformance.__main__ import main
from gpuplat.conformance.files import BUNDLED
from gpuplat.conformance.hclread import HclParseError, parse_text
from gpuplat.conformance.rulecheck import RuleChecker, load_bundled
from gpuplat.conformance.schema import Kind
from gpuplat.errors import ExitCode
from tests.support.realparts import (
    REPO,
    aws_provider_mirror,
    provider_schema_dir,
    terraform_bin,
    terraform_env,
)

FIXTURES = Path(__file__).parent / "fixtures"
NEGATIVE = FIXTURES / "negative"
AWS_VERSIONS = """terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "5.100.0"
    }
  }
}
"""


@pytest.fixture(scope="module")
def schemas() -> ProviderSchemas:
    return load_schemas(provider_schema_dir())


@pytest.fixture(scope="module")
def bundled() -> ProviderSchemas:
    """The trimmed set shipped in the package, whatever GPUPLAT_PROVIDER_SCHEMAS says."""
    return load_schemas(BUNDLED)


def found(violations: list[Violation]) -> list[tuple[str, int, str]]:
    return [(v.file.name, v.line, v.code) for v in violations]


# --- valid fixtures ----------------------------------------------------------------------------


def test_gke_cluster_and_gpu_node_pools_conform(schemas: ProviderSchemas) -> None:
    report = check([FIXTURES / "valid" / "gke"], schemas)
    assert report.violations == ()
    assert report.files == 1
    assert report.blocks == 10
    # The shared schema files carry no provider configuration schema: said, not hidden.
    assert {n.code for n in report.notes} <= {"provider-not-checked"}


def test_kubernetes_deployment_and_helm_release_conform(schemas: ProviderSchemas) -> None:
    assert check_paths([FIXTURES / "valid" / "workloads"], schemas) == []


def test_valid_module_calls_conform(schemas: ProviderSchemas) -> None:
    report = check([FIXTURES / "valid" / "root", FIXTURES / "modules"], schemas)
    assert report.violations == ()
    assert report.notes == ()
    assert str(report.summary()) == "3 files, 3 blocks checked, 0 violations"


def test_helm_3_set_is_a_nested_attribute_not_a_block(schemas: ProviderSchemas) -> None:
    found_type = schemas.lookup("resource", "helm_release")
    assert found_type is not None
    provider, schema = found_type
    assert provider == "helm"
    assert "set" not in schema.block_types
    nested = schema.attributes["set"].nested
    assert nested is not None
    assert nested.nesting_mode == "list"
    assert nested.attributes["name"].required


# --- negative fixtures: one per code, exact (file, line, code) lists ------------------------------

EXPECTED: dict[str, list[tuple[int, str]]] = {
    "parse-error.tf": [(2, "parse-error")],
    "unknown-provider.tf": [(1, "unknown-provider"), (5, "unknown-provider")],
    "unknown-resource-type.tf": [
        (1, "unknown-resource-type"),
        (5, "unknown-resource-type"),
        (7, "unknown-resource-type"),
    ],
    "unknown-attribute.tf": [
        (3, "unknown-attribute"),
        (6, "unknown-attribute"),
        (10, "unknown-attribute"),
        (17, "unknown-attribute"),
        (25, "unknown-attribute"),
        (29, "unknown-attribute"),
        (37, "unknown-attribute"),
    ],
    "unknown-block.tf": [
        (5, "unknown-block"),
        (10, "unknown-block"),
        (16, "unknown-block"),
        (21, "unknown-block"),
    ],
    "attribute-is-block.tf": [(3, "attribute-is-block")],
    "block-is-attribute.tf": [(5, "block-is-attribute"), (14, "block-is-attribute")],
    "computed-only.tf": [(3, "computed-only"), (9, "computed-only"), (15, "computed-only")],
    "missing-required.tf": [
        (1, "missing-required"),
        (5, "missing-required"),
        (8, "missing-required"),
        (14, "missing-required"),
        (23, "missing-required"),
    ],
    "block-count.tf": [(6, "block-count"), (12, "block-count")],
    "block-labels.tf": [(3, "block-labels"), (8, "block-labels")],
    "duplicate-attribute.tf": [(4, "duplicate-attribute")],
    "count-and-for-each.tf": [(3, "count-and-for-each")],
    "unknown-backend.tf": [(2, "unknown-backend")],
    "data-source.tf": [(3, "unknown-attribute"), (9, "computed-only")],
}


def test_every_negative_fixture_has_expectations() -> None:
    assert sorted(p.name for p in NEGATIVE.glob("*.tf")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_negative_fixture(name: str, schemas: ProviderSchemas) -> None:
    violations = check_paths([NEGATIVE / name], schemas)
    assert found(violations) == [(name, line, code) for line, code in EXPECTED[name]]
    assert all(v.severity == "error" for v in violations)


def test_messages_carry_suggestions_and_paths(schemas: ProviderSchemas) -> None:
    messages = {
        (v.file.name, v.line): v.message
        for v in check_paths(
            [NEGATIVE / "unknown-attribute.tf", NEGATIVE / "unknown-block.tf"], schemas
        )
    }
    assert messages[("unknown-attribute.tf", 3)] == (
        "unknown attribute `node_cont`; did you mean `node_count`?"
    )
    assert (
        "`node_config.machine_typ`; did you mean `machine_type`?"
        in messages[("unknown-attribute.tf", 6)]
    )
    assert "did you mean `taint`?" in messages[("unknown-block.tf", 10)]
    assert "did you mean `resource`?" in messages[("unknown-block.tf", 21)]


def test_addresses(schemas: ProviderSchemas) -> None:
    addresses = {v.address for v in check_paths([NEGATIVE], schemas)}
    assert {
        "google_container_node_pool.this",
        "data.kubernetes_namespace_v9.gpu",
        "data.google_client_config.current",
        "terraform.backend.gcs",
        "terraform.required_providers.google",
        "provider.randm",
    } <= addresses


def test_module_calls(schemas: ProviderSchemas) -> None:
    report = check([FIXTURES / "calls"], schemas)
    assert found(list(report.violations)) == [
        ("main.tf", 5, "module-unknown-argument"),
        ("main.tf", 6, "module-unknown-argument"),
        ("main.tf", 9, "module-missing-variable"),
        ("main.tf", 9, "module-missing-variable"),
        ("main.tf", 20, "module-source"),
        ("main.tf", 27, "unknown-block"),
    ]
    assert {v.address for v in report.violations} == {
        "module.pool_l4",
        "module.pool_missing",
        "module.gone",
        "module.nested_block",
    }
    assert "did you mean `accelerator_count`?" in report.violations[0].message
    assert "`accelerator`" in report.violations[2].message
    assert "`cluster_id`" in report.violations[3].message
    assert found(list(report.notes)) == [("main.tf", 15, "module-not-checked")]


def test_every_code_is_exercised(bundled: ProviderSchemas) -> None:
    paths = [
        NEGATIVE,
        FIXTURES / "calls",
        FIXTURES / "valid",
        FIXTURES / "trimmed",
        FIXTURES / "crds",
        FIXTURES / "rules",
        FIXTURES / "aliases",
    ]
    report = check(paths, bundled, RuleChecker(load_bundled()))
    seen = {v.code for v in (*report.violations, *report.notes)}
    # A provider-rule code whose check no bundled rule file uses cannot be produced.
    used = {f"rule-{s['check'].replace('_', '-')}" for rules in load_bundled().rules.values()
            for s in (r.spec for r in rules)} | {"rule-conditional"}  # fmt: skip
    unused = {c for c in CODES if c.startswith("rule-") and c not in used}
    assert unused == {"rule-not-in", "rule-size"}
    assert seen == set(CODES) - unused


def test_types_left_out_of_the_trimmed_set_are_noted_not_rejected(
    bundled: ProviderSchemas,
) -> None:
    report = check([FIXTURES / "trimmed"], bundled)
    assert report.violations == ()
    assert [(n.line, n.code, n.address) for n in report.notes] == [
        (3, "type-not-checked", "google_compute_route.vpc"),
        (8, "type-not-checked", "data.google_compute_zones.available"),
    ]
    assert "google resource type whose schema is not in google-6.50.0.json" in (
        report.notes[0].message
    )
    # A misspelt type is still an error, with a suggestion from all of google's names.
    (typo,) = check_paths([NEGATIVE / "unknown-resource-type.tf"], bundled)[:1]
    assert typo.message.endswith("did you mean `google_container_cluster`?")
    assert "google_compute_route" in bundled.type_names("resource", "google")
    assert bundled.lookup("resource", "google_compute_route") is None


def test_a_full_schema_file_replaces_the_trimmed_one(tmp_path: Path) -> None:
    address = "registry.terraform.io/hashicorp/google"
    network = {"block": {"attributes": {"name": {"type": "string", "required": True}}}}
    full = {"provider_schemas": {address: {"resource_schemas": {"google_compute_route": network}}}}
    extra = tmp_path / "google-9.9.9.json"
    extra.write_text(json.dumps(full), encoding="utf-8")
    schemas = load_schemas(BUNDLED, [extra])
    assert schemas.omitted("resource", "google_compute_route") is None
    assert schemas.lookup("resource", "google_container_cluster") is None  # not in the new file
    violations = check_paths([FIXTURES / "trimmed" / "main.tf"], schemas)
    assert [(v.line, v.code) for v in violations] == [
        (5, "unknown-attribute"),  # auto_create_subnetworks: not in this tiny schema
        (8, "unknown-resource-type"),
    ]


def test_dynamic_block_satisfies_min_items_and_leaves_max_open(
    schemas: ProviderSchemas, tmp_path: Path
) -> None:
    (tmp_path / "main.tf").write_text(
        """
resource "kubernetes_deployment_v1" "d" {
  metadata {
    name = "d"
  }
  dynamic "spec" {
    for_each = [1]
    content {
      template {
        metadata {}
        spec {
          container {
            name = "c"
          }
        }
      }
    }
  }
}
""",
        encoding="utf-8",
    )
    assert check_paths([tmp_path], schemas) == []


# --- API, CLI, loading ---------------------------------------------------------------------------


def test_lookup_maps_types_to_providers(bundled: ProviderSchemas) -> None:
    schemas = bundled
    assert {name: info.version for name, info in schemas.providers.items()} == {
        "aws": "5.100.0",
        "azurerm": "4.79.0",
        "google": "6.50.0",
        "helm": "3.0.2",
        "kubernetes": "2.38.0",
    }
    cases: list[tuple[Kind, str, str]] = [
        ("resource", "google_container_node_pool", "google"),
        ("data", "google_client_config", "google"),
        ("resource", "kubernetes_deployment_v1", "kubernetes"),
        ("resource", "azurerm_kubernetes_cluster_node_pool", "azurerm"),
        ("resource", "terraform_data", "terraform"),
        ("data", "terraform_remote_state", "terraform"),
    ]
    for kind, type_name, provider in cases:
        hit = schemas.lookup(kind, type_name)
        assert hit is not None and hit[0] == provider, type_name
    assert schemas.lookup("resource", "google_nope") is None


def test_load_schemas_is_fast_and_memoised() -> None:
    directory = provider_schema_dir()
    started = time.perf_counter()
    first = load_schemas(directory)
    second = load_schemas(directory)
    assert first is second
    assert time.perf_counter() - started < 10  # ~0.2 s measured; generous for slow CI


def test_load_schemas_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_schemas(tmp_path / "missing")
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="provider_schemas"):
        load_schemas(tmp_path)


def test_find_schema_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "x-1.0.0.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("GPUPLAT_PROVIDER_SCHEMAS", str(tmp_path))
    assert find_schema_dir() == tmp_path
    monkeypatch.delenv("GPUPLAT_PROVIDER_SCHEMAS")
    assert find_schema_dir() == BUNDLED
    assert BUNDLED == REPO / "src" / "gpuplat" / "conformance" / "schemas"


def test_parse_keeps_lines_and_unquotes_labels() -> None:
    body = parse_text('\n\nresource "a_b" "c" {\n  x = "y"\n  n {\n  }\n}\n')
    (block,) = body.blocks
    assert (block.type, block.labels, block.line) == ("resource", ("a_b", "c"), 3)
    assert (block.body.attributes[0].name, block.body.attributes[0].line) == ("x", 4)
    assert block.body.attributes[0].value == '"y"'
    assert block.body.blocks[0].line == 5
    with pytest.raises(HclParseError) as info:
        parse_text('resource "a" "b" {\n  x = \n}\n')
    assert info.value.line == 2


def test_missing_path_raises(schemas: ProviderSchemas, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        check_paths([tmp_path / "nope"], schemas)


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    schema_dir = str(provider_schema_dir())
    assert main(["--schemas", schema_dir, str(FIXTURES / "valid" / "gke")]) == ExitCode.OK
    assert "0 violations" in capsys.readouterr().err
    assert main(["--schemas", schema_dir, str(NEGATIVE / "unknown-attribute.tf")]) == 11
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7
    assert all(
        re.match(r"^\S+unknown-attribute\.tf:\d+: .+ \[unknown-attribute\]$", x) for x in lines
    )
    assert main(["--schemas", schema_dir, str(FIXTURES / "calls")]) == ExitCode.NONCONFORMANT
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 6
    assert "note: module.vpc: " in err  # notes go to stderr, stdout holds violations only
    assert "6 violations" in err
    assert main(["--schemas", schema_dir, str(FIXTURES / "nope")]) == ExitCode.ERROR
    assert capsys.readouterr().err.startswith(
        f"error: cannot read the Terraform to check: no such file or directory: {FIXTURES}/nope\n"
    )
    assert main(["--schemas", str(FIXTURES / "nope"), str(FIXTURES)]) == ExitCode.ERROR
    err = capsys.readouterr().err
    assert "error: cannot load provider schemas: provider schema directory not found" in err
    assert "hint: pass --schemas DIR" in err
    with pytest.raises(SystemExit) as usage:
        main(["--no-such-option"])
    assert usage.value.code == ExitCode.USAGE


def test_cli_as_module() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpuplat.conformance",
            "--schemas",
            str(provider_schema_dir()),
            str(NEGATIVE / "duplicate-attribute.tf"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == ExitCode.NONCONFORMANT, result.stderr
    assert result.stdout.endswith("`name` set twice [duplicate-attribute]\n")


# --- real terraform: the aws schema from the filesystem mirror ------------------------------------


def _terraform(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [terraform_bin(), *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def _mirror_env(tmp: Path) -> dict[str, str]:
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "terraformrc").write_text(
        "disable_checkpoint = true\n"
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path = "{aws_provider_mirror()}"\n  }}\n'
        "}\n",
        encoding="utf-8",
    )
    return terraform_env(tmp)


def _init(root: Path, env: dict[str, str]) -> None:
    (root / "versions.tf").write_text(AWS_VERSIONS, encoding="utf-8")
    result = _terraform(["init", "-input=false", "-backend=false", "-no-color"], root, env)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="session")
def aws_schema(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``terraform providers schema -json`` of the real aws 5.100.0, generated once per session.

    Under pytest-xdist the workers share one copy, made by whichever worker takes the lock first.
    """
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    out = shared / "aws-5.100.0.json"
    with (shared / "aws-schema.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.exists():
            tmp = tmp_path_factory.mktemp("aws-schema")
            env = _mirror_env(tmp)
            root = tmp / "root"
            root.mkdir()
            _init(root, env)
            result = _terraform(["providers", "schema", "-json"], root, env)
            assert result.returncode == 0, result.stderr
            partial = tmp / "schema.json"
            partial.write_text(result.stdout, encoding="utf-8")
            partial.replace(out)
    return out


def _validate(fixture: Path, tmp: Path) -> tuple[Path, list[int]]:
    """Copy a fixture into a root, run real ``terraform validate``; return the root and lines."""
    env = _mirror_env(tmp)
    root = tmp / "root"
    shutil.copytree(fixture, root)
    _init(root, env)
    result = _terraform(["validate", "-json", "-no-color"], root, env)
    diagnostics = json.loads(result.stdout)["diagnostics"]
    lines = [d["range"]["start"]["line"] for d in diagnostics if d["severity"] == "error"]
    return root, sorted(lines)


@pytest.mark.terraform
def test_aws_valid_node_group_agrees_with_terraform_validate(
    schemas: ProviderSchemas, aws_schema: Path, tmp_path: Path
) -> None:
    with_aws = load_schemas(provider_schema_dir(), [aws_schema])
    assert with_aws.providers["aws"].version == "5.100.0"
    assert with_aws.provider_config("aws") is not None
    root, terraform_errors = _validate(FIXTURES / "aws" / "valid", tmp_path)
    assert terraform_errors == []
    report = check([root / "main.tf", root / "versions.tf"], with_aws)
    assert report.violations == ()
    assert report.notes == ()  # the generated schema has the provider block: it was checked


@pytest.mark.terraform
def test_aws_negative_node_groups_match_terraform_validate_lines(
    aws_schema: Path, tmp_path: Path
) -> None:
    with_aws = load_schemas(provider_schema_dir(), [aws_schema])
    root, terraform_errors = _validate(FIXTURES / "aws" / "negative", tmp_path)
    violations = check_paths([root / "main.tf"], with_aws)
    assert [v.line for v in violations] == terraform_errors
    # terraform reports `scaling_config = {...}` twice too: as an unsupported argument (line 32)
    # and as the missing required block on the resource's line (28).
    assert [(v.line, v.code) for v in violations] == [
        (6, "unknown-attribute"),
        (23, "unknown-block"),
        (28, "missing-required"),
        (32, "attribute-is-block"),
        (44, "block-is-attribute"),
        (53, "computed-only"),
        (61, "missing-required"),
        (71, "missing-required"),
        (89, "block-count"),
        (108, "unknown-attribute"),
    ]


@pytest.mark.terraform
def test_aws_provider_block_is_checked(aws_schema: Path, tmp_path: Path) -> None:
    with_aws = load_schemas(provider_schema_dir(), [aws_schema])
    root, terraform_errors = _validate(FIXTURES / "aws" / "provider", tmp_path)
    violations = check_paths([root / "main.tf"], with_aws)
    assert [(v.line, v.code) for v in violations] == [(2, "unknown-attribute")]
    assert [v.line for v in violations] == terraform_errors
    assert "did you mean `region`?" in violations[0].message


# --- scripts/provider-schemas.sh ----------------------------------------------------------------

SCRIPT = REPO / "scripts" / "provider-schemas.sh"


def _script_env(tmp: Path, providers: str) -> dict[str, str]:
    env = terraform_env(tmp)
    env.update(
        {
            "PROVIDERS": providers,
            "TF_PLUGIN_MIRROR": str(aws_provider_mirror()),
            "TERRAFORM": terraform_bin(),
        }
    )
    return env


@pytest.mark.terraform
def test_script_writes_the_aws_schema_from_the_mirror(aws_schema: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = subprocess.run(
        ["bash", str(SCRIPT), str(out)],
        env=_script_env(tmp_path, "aws=5.100.0"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert [p.name for p in out.iterdir()] == ["aws-5.100.0.json"]
    written = json.loads((out / "aws-5.100.0.json").read_text(encoding="utf-8"))
    direct = json.loads(aws_schema.read_text(encoding="utf-8"))
    address = "registry.terraform.io/hashicorp/aws"
    assert written["provider_schemas"][address].pop("version") == "5.100.0"
    assert written["provider_schemas"][address] == direct["provider_schemas"][address]


@pytest.mark.terraform
def test_script_fails_clearly_when_a_provider_cannot_be_installed(tmp_path: Path) -> None:
    result = subprocess.run(
        ["bash", str(SCRIPT), str(tmp_path / "out")],
        env=_script_env(tmp_path, "aws=0.0.1"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "cannot install hashicorp/aws 0.0.1" in result.stderr
    assert "no schema for: aws=0.0.1" in result.stderr
