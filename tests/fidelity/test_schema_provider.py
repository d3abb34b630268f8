"""Real `terraform init` + `terraform validate` against the real provider schemas.

tools/schema-provider serves the google/kubernetes/helm schemas vendored in the package
(src/gpuplat/conformance/schemas: every type the templates use, trimmed by
scripts/trim_schemas.py) through the plugin protocol, so Terraform itself type-checks configurations: attribute types,
module arguments against `variable` types, references, functions, `dynamic` blocks, block
counts and required arguments. The stand-in is built once (tools/schema-provider/setup.sh,
cached under build/schema-provider); if it cannot be built the tests skip on a developer
machine and fail under CI=true.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.realparts import REPO, in_ci, provider_schema_dir
from tests.support.standin import (
    MODE_ENV,
    PROVIDERS,
    build_stand_ins,
    record_env,
    recorded_applies,
    run,
    with_real_aws,
)

pytestmark = pytest.mark.terraform

GOLDEN = REPO / "tests" / "golden"
GOLDEN_ROOTS = sorted(
    p
    for p in GOLDEN.glob("*/envs/*/*/*")
    if p.is_dir() and p.name in ("infra", "platform", "serving")
)


@pytest.fixture(scope="session")
def cli_config() -> Path:
    """Build (or reuse) the stand-in providers; the CLI config that installs them."""
    return build_stand_ins()


def init_and_validate(cli_config: Path, workdir: Path) -> subprocess.CompletedProcess[str]:
    init = run(cli_config, workdir, "init", "-backend=false", "-input=false")
    assert init.returncode == 0, f"terraform init failed:\n{init.stdout}\n{init.stderr}"
    return run(cli_config, workdir, "validate")


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def mutate(text: str, old: str, new: str) -> tuple[str, int]:
    """Replace the one occurrence of ``old``; the 1-based line it is on."""
    assert text.count(old) == 1, f"{old!r} must occur exactly once"
    line = text[: text.index(old)].count("\n") + 1
    return text.replace(old, new), line


def assert_valid(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, f"terraform validate failed:\n{done.stdout}\n{done.stderr}"
    assert "Success! The configuration is valid." in done.stdout


GKE_ROOT = """\
terraform {
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 6.50, < 8"
    }
  }
}

provider "google" {
  project        = "acme-dev"
  region         = "us-central1"
  default_labels = { managed-by = "gpuplat" }
}

variable "taints" {
  type    = list(object({ key = string, value = string, effect = string }))
  default = []
}

resource "google_container_cluster" "this" {
  name                     = "gpu"
  location                 = "us-central1"
  remove_default_node_pool = true
  initial_node_count       = 1
  deletion_protection      = false

  release_channel {
    channel = "REGULAR"
  }

  workload_identity_config {
    workload_pool = "acme-dev.svc.id.goog"
  }
}

resource "google_container_node_pool" "l4" {
  name     = "l4"
  cluster  = google_container_cluster.this.id
  location = google_container_cluster.this.location

  autoscaling {
    total_min_node_count = 0
    total_max_node_count = 4
    location_policy      = "ANY"
  }

  node_config {
    machine_type = "g2-standard-8"
    spot         = true

    guest_accelerator {
      type  = "nvidia-l4"
      count = 1

      gpu_driver_installation_config {
        gpu_driver_version = "LATEST"
      }
    }

    dynamic "taint" {
      for_each = var.taints
      content {
        key    = taint.value.key
        value  = taint.value.value
        effect = taint.value.effect
      }
    }

    shielded_instance_config {
      enable_secure_boot = true
    }
  }
}

output "endpoint" {
  value = google_container_cluster.this.endpoint
}
"""


def test_valid_gke_root_passes(cli_config: Path, tmp_path: Path) -> None:
    root = write(tmp_path / "root", {"main.tf": GKE_ROOT})
    assert_valid(init_and_validate(cli_config, root))


@pytest.mark.parametrize(
    ("old", "new", "bad", "message"),
    [
        (
            "      count = 1\n",
            '      count = "two"\n',
            'count = "two"',
            'Inappropriate value for attribute "count": a number is required.',
        ),
        (
            "enable_secure_boot = true",
            'enable_secure_boot = "yes"',
            'enable_secure_boot = "yes"',
            'Inappropriate value for attribute "enable_secure_boot": a bool is required.',
        ),
        (
            "    spot         = true\n",
            "    spot         = true\n    gpu_count    = 1\n",
            "gpu_count",
            'An argument named "gpu_count" is not expected here.',
        ),
    ],
    ids=["string-for-number", "string-for-bool", "unknown-argument"],
)
def test_type_errors_name_file_and_line(
    cli_config: Path, tmp_path: Path, old: str, new: str, bad: str, message: str
) -> None:
    text, _ = mutate(GKE_ROOT, old, new)
    line = text[: text.index(bad)].count("\n") + 1
    root = write(tmp_path / "root", {"main.tf": text})
    done = init_and_validate(cli_config, root)
    assert done.returncode == 1, done.stdout
    assert f'on main.tf line {line}, in resource "google_container_node_pool" "l4"' in (
        done.stderr
    ), done.stderr
    assert message in " ".join(done.stderr.split()), done.stderr


def test_missing_required_argument_and_too_many_blocks(cli_config: Path, tmp_path: Path) -> None:
    text, _ = mutate(GKE_ROOT, "  cluster  = google_container_cluster.this.id\n", "")
    text, _ = mutate(
        text,
        "  node_config {\n    machine_type",
        "  autoscaling {\n    total_max_node_count = 8\n  }\n\n  node_config {\n    machine_type",
    )
    root = write(tmp_path / "root", {"main.tf": text})
    done = init_and_validate(cli_config, root)
    assert done.returncode == 1
    errors = " ".join(done.stderr.split())
    assert 'The argument "cluster" is required, but no definition was found.' in errors
    assert "Error: Too many autoscaling blocks" in errors


CHILD_VARIABLES = """\
variable "accelerator" {
  type = object({
    type           = string
    count          = number
    partition_size = optional(string)
  })
}
"""

CHILD_MAIN = """\
terraform {
  required_providers {
    google = { source = "hashicorp/google" }
  }
}

resource "google_container_node_pool" "this" {
  cluster = "gpu"

  node_config {
    guest_accelerator {
      type               = var.accelerator.type
      count              = var.accelerator.count
      gpu_partition_size = var.accelerator.partition_size
    }
  }
}
"""

MODULE_CALL = """\
module "pool" {
  source      = "./modules/pool"
  accelerator = { type = "nvidia-h100-80gb", count = 8 }
}
"""


@pytest.mark.parametrize(
    ("new", "message"),
    [
        (
            '{ type = "nvidia-h100-80gb", cuont = 8 }',
            'attribute "count" is required.',
        ),
        (
            '{ type = "nvidia-h100-80gb", count = "eight" }',
            "a number is required.",
        ),
        (None, None),
    ],
    ids=["misspelled-attribute", "wrong-attribute-type", "control"],
)
def test_module_call_checked_against_object_variable(
    cli_config: Path, tmp_path: Path, new: str | None, message: str | None
) -> None:
    call = MODULE_CALL
    if new is not None:
        call, _ = mutate(MODULE_CALL, '{ type = "nvidia-h100-80gb", count = 8 }', new)
    root = write(
        tmp_path / "root",
        {
            "main.tf": call,
            "modules/pool/variables.tf": CHILD_VARIABLES,
            "modules/pool/main.tf": CHILD_MAIN,
        },
    )
    done = init_and_validate(cli_config, root)
    if message is None:
        assert_valid(done)
        return
    assert done.returncode == 1, done.stdout
    errors = " ".join(done.stderr.split())
    assert "Error: Invalid value for input variable" in errors
    assert 'on main.tf line 3, in module "pool"' in errors
    assert (
        "The given value is not suitable for module.pool.var.accelerator declared at "
        "modules/pool/variables.tf:1,1-23: " + message
    ) in errors


PLATFORM_ROOT = """\
terraform {
  required_providers {
    google     = { source = "hashicorp/google", version = ">= 6.50, < 8" }
    kubernetes = { source = "hashicorp/kubernetes", version = "~> 2.38" }
    helm       = { source = "hashicorp/helm", version = "~> 3.0" }
  }
}

data "google_client_config" "current" {}

data "google_container_cluster" "gpu" {
  name     = "gpu"
  location = "us-central1"
}

provider "kubernetes" {
  host                   = "https://${data.google_container_cluster.gpu.endpoint}"
  token                  = data.google_client_config.current.access_token
  cluster_ca_certificate = base64decode(data.google_container_cluster.gpu.master_auth[0].cluster_ca_certificate)
}

provider "helm" {
  kubernetes = {
    host                   = "https://${data.google_container_cluster.gpu.endpoint}"
    cluster_ca_certificate = base64decode(data.google_container_cluster.gpu.master_auth[0].cluster_ca_certificate)
    exec = {
      api_version = "client.authentication.k8s.io/v1beta1"
      command     = "gke-gcloud-auth-plugin"
    }
  }
}

resource "kubernetes_namespace_v1" "serving" {
  metadata {
    name = "serving"
  }
}

resource "helm_release" "gpu_operator" {
  name       = "gpu-operator"
  repository = "https://helm.ngc.nvidia.com/nvidia"
  chart      = "gpu-operator"
  namespace  = kubernetes_namespace_v1.serving.metadata[0].name
  set = [
    { name = "driver.enabled", value = "false" },
  ]
}
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (None, None, None),
        (
            '  set = [\n    { name = "driver.enabled", value = "false" },\n  ]\n',
            '  set {\n    name  = "driver.enabled"\n    value = "false"\n  }\n',
            'Blocks of type "set" are not expected here.',
        ),
        (
            "cluster_ca_certificate = base64decode(data.google_container_cluster.gpu."
            "master_auth[0].cluster_ca_certificate)\n}",
            "cluster_ca_certificate = base64decode(data.google_container_cluster.gpu."
            "master_auth[0].cluster_ca_cert)\n}",
            'This object does not have an attribute named "cluster_ca_cert".',
        ),
    ],
    ids=["control", "helm2-set-block", "bad-reference-in-provider-block"],
)
def test_kubernetes_and_helm_roots(
    cli_config: Path, tmp_path: Path, old: str | None, new: str | None, message: str | None
) -> None:
    text = PLATFORM_ROOT if old is None else mutate(PLATFORM_ROOT, old, new or "")[0]
    root = write(tmp_path / "root", {"main.tf": text})
    done = init_and_validate(cli_config, root)
    if message is None:
        assert_valid(done)
        return
    assert done.returncode == 1, done.stdout
    assert message in " ".join(done.stderr.split()), done.stderr


@pytest.mark.parametrize(
    "infra",
    GOLDEN_ROOTS,
    ids=[f"{p.parents[3].name}/{p.parents[1].name}/{p.name}" for p in GOLDEN_ROOTS],
)
def test_golden_roots_validate(cli_config: Path, tmp_path: Path, infra: Path) -> None:
    project = infra.parents[3]
    copy = tmp_path / project.name
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".terraform"))
    workdir = copy / infra.relative_to(project)
    assert_valid(init_and_validate(with_real_aws(cli_config, tmp_path), workdir))


def test_golden_roots_exist() -> None:
    if not GOLDEN_ROOTS:
        message = f"no rendered roots in {GOLDEN}/*/envs/*/*/infra"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def test_plan_shows_the_configuration_and_apply_is_refused(
    cli_config: Path, tmp_path: Path
) -> None:
    """The stand-in plans what is configured (computed values unknown) and applies nothing."""
    root = write(tmp_path / "root", {"main.tf": GKE_ROOT})
    assert_valid(init_and_validate(cli_config, root))
    done = run(cli_config, root, "plan", "-input=false", "-out=plan.tfplan")
    assert done.returncode == 0, done.stderr
    shown = run(cli_config, root, "show", "-json", "plan.tfplan")
    assert shown.returncode == 0, shown.stderr
    plan = json.loads(shown.stdout)
    changes = {c["address"]: c["change"] for c in plan["resource_changes"]}
    pool = changes["google_container_node_pool.l4"]
    assert pool["actions"] == ["create"]
    config = pool["after"]["node_config"][0]
    assert config["machine_type"] == "g2-standard-8"
    assert config["guest_accelerator"][0]["count"] == 1
    assert pool["after"]["autoscaling"][0]["total_max_node_count"] == 4
    # Computed and left unset: unknown until apply, as a real provider would plan them.
    assert pool["after_unknown"]["id"] is True
    assert pool["after_unknown"]["node_config"][0]["disk_size_gb"] is True
    assert "cluster" in pool["after_unknown"]  # a reference to the unknown cluster id
    applied = run(cli_config, root, "apply", "-input=false", "plan.tfplan")
    assert applied.returncode == 1
    assert (
        "Error: terraform-provider-google here is a schema-only stand-in: "
        "ApplyResourceChange is refused"
    ) in applied.stderr


def test_terraform_reads_back_the_exact_schemas(cli_config: Path, tmp_path: Path) -> None:
    """Terraform's own decoding of what the stand-in sends equals the schema files.

    `terraform providers schema -json` renders the protobuf schemas Terraform received; for
    every resource, data source and ephemeral resource of all four providers that must be
    the input JSON exactly (types, flags, descriptions, nesting modes, min/max items). The
    provider blocks come from schema_provider/provider_config (the vendored files have none).
    """
    # The platform root needs google, kubernetes and helm; azurerm (AKS infra) is added.
    text = PLATFORM_ROOT.replace(
        "  required_providers {\n",
        '  required_providers {\n    azurerm = { source = "hashicorp/azurerm" }\n',
        1,
    )
    root = write(tmp_path / "root", {"main.tf": text})
    init = run(cli_config, root, "init", "-backend=false", "-input=false")
    assert init.returncode == 0, init.stderr
    done = run(cli_config, root, "providers", "schema", "-json")
    assert done.returncode == 0, done.stderr
    served = json.loads(done.stdout)["provider_schemas"]
    kinds = ("resource_schemas", "data_source_schemas", "ephemeral_resource_schemas")
    for name, version in PROVIDERS.items():
        address = f"registry.terraform.io/hashicorp/{name}"
        source = json.loads(
            (provider_schema_dir() / f"{name}-{version}.json").read_text(encoding="utf-8")
        )["provider_schemas"][address]
        for kind in kinds:
            assert served[address].get(kind, {}) == source.get(kind, {}), f"{name} {kind}"
        assert served[address]["provider"]["block"]["attributes"], f"{name} provider block"


RECORD_ROOT = """\
terraform {
  required_providers {
    google     = { source = "hashicorp/google", version = ">= 6.50, < 8" }
    kubernetes = { source = "hashicorp/kubernetes", version = "~> 2.38" }
  }
}

variable "replicas" {
  type    = number
  default = 2
}

data "google_client_config" "current" {}

provider "kubernetes" {
  host  = "https://203.0.113.10"
  token = data.google_client_config.current.access_token
}

resource "kubernetes_namespace_v1" "serving" {
  metadata {
    name   = "serving"
    labels = { "app.kubernetes.io/managed-by" = "gpuplat" }
  }
}

resource "kubernetes_deployment_v1" "server" {
  metadata {
    name      = "llm"
    namespace = kubernetes_namespace_v1.serving.metadata[0].name
  }
  spec {
    replicas = var.replicas
    selector {
      match_labels = { app = "llm" }
    }
    template {
      metadata {
        labels = { app = "llm" }
      }
      spec {
        container {
          name  = "server"
          image = "vllm/vllm-openai:v0.6.3"
          args  = ["--model", "/models/llm"]
          resources {
            limits = { "nvidia.com/gpu" = "1" }
          }
        }
      }
    }
  }
}

resource "kubernetes_manifest" "scaled_object" {
  manifest = {
    apiVersion = "keda.sh/v1alpha1"
    kind       = "ScaledObject"
    metadata   = { name = "llm", namespace = kubernetes_namespace_v1.serving.metadata[0].name }
    spec = {
      scaleTargetRef = { name = kubernetes_deployment_v1.server.metadata[0].name }
      # KEDA's CRD requires triggers (the stand-in checks the planned object against it).
      triggers = [{ type = "external-push", metadata = { scalerAddress = "scaler.keda:9090" } }]
    }
  }
}

output "namespace_uid" {
  value = kubernetes_namespace_v1.serving.metadata[0].uid
}
"""


def _state(cli_config: Path, root: Path, env: dict[str, str]) -> dict[str, dict[str, Any]]:
    shown = run(cli_config, root, "show", "-json", env=env)
    assert shown.returncode == 0, shown.stderr
    resources = json.loads(shown.stdout).get("values", {}).get("root_module", {})
    return {r["address"]: r["values"] for r in resources.get("resources", [])}


def _planned_actions(
    cli_config: Path, root: Path, env: dict[str, str], *args: str
) -> dict[str, list[str]]:
    done = run(cli_config, root, "plan", "-input=false", "-out=plan.tfplan", *args, env=env)
    assert done.returncode == 0, done.stderr
    shown = run(cli_config, root, "show", "-json", "plan.tfplan", env=env)
    assert shown.returncode == 0, shown.stderr
    changes = json.loads(shown.stdout)["resource_changes"]
    return {c["address"]: c["change"]["actions"] for c in changes}


def test_record_mode_applies_replaces_and_destroys(cli_config: Path, tmp_path: Path) -> None:
    """Record mode: real terraform applies a kubernetes root twice, with nothing behind it.

    The stand-in stores each object as planned (unknowns as typed placeholders), reads it back
    unchanged, passes stored state through UpgradeResourceState and answers the data source
    from its config. What this proves is Terraform's side: planned objects, apply order, state.
    Nothing ran: the uid, generation and the data source's token are placeholders.
    """
    log = tmp_path / "applies.jsonl"
    env = record_env(log)
    root = write(tmp_path / "root", {"main.tf": RECORD_ROOT})
    assert_valid(init_and_validate(cli_config, root))

    first = _planned_actions(cli_config, root, env)
    assert first == {
        "kubernetes_namespace_v1.serving": ["create"],
        "kubernetes_deployment_v1.server": ["create"],
        "kubernetes_manifest.scaled_object": ["create"],
    }
    applied = run(cli_config, root, "apply", "-input=false", "plan.tfplan", env=env)
    assert applied.returncode == 0, applied.stderr
    state = _state(cli_config, root, env)
    deployment = state["kubernetes_deployment_v1.server"]
    assert deployment["spec"][0]["replicas"] == "2"
    container = deployment["spec"][0]["template"][0]["spec"][0]["container"][0]
    assert container["image"] == "vllm/vllm-openai:v0.6.3"
    assert container["args"] == ["--model", "/models/llm"]
    assert container["resources"][0]["limits"] == {"nvidia.com/gpu": "1"}
    assert deployment["metadata"][0]["namespace"] == "serving"
    # Placeholders for what a cluster would have set: typed, and visibly not a cluster's.
    assert deployment["id"].startswith("recorded-")
    assert deployment["metadata"][0]["uid"] == ""
    assert deployment["metadata"][0]["generation"] == 0
    assert container["port"] == []
    assert state["data.google_client_config.current"]["access_token"] == ""
    manifest = state["kubernetes_manifest.scaled_object"]
    assert manifest["manifest"]["spec"]["scaleTargetRef"] == {"name": "llm"}
    assert manifest["object"] == {}  # the API server's copy would be here: a placeholder
    assert state["kubernetes_namespace_v1.serving"]["metadata"][0]["labels"] == {
        "app.kubernetes.io/managed-by": "gpuplat"
    }

    # Nothing drifts: refresh (ReadResource) and state upgrade give back what was stored.
    again = run(cli_config, root, "plan", "-input=false", "-detailed-exitcode", env=env)
    assert again.returncode == 0, f"a second plan should show no changes:\n{again.stdout}"

    replace = _planned_actions(
        cli_config, root, env, "-replace=kubernetes_deployment_v1.server", "-var=replicas=3"
    )
    assert replace == {
        "kubernetes_namespace_v1.serving": ["no-op"],
        "kubernetes_deployment_v1.server": ["delete", "create"],
        "kubernetes_manifest.scaled_object": ["no-op"],
    }
    applied = run(cli_config, root, "apply", "-input=false", "plan.tfplan", env=env)
    assert applied.returncode == 0, applied.stderr
    replaced = _state(cli_config, root, env)["kubernetes_deployment_v1.server"]
    assert replaced["spec"][0]["replicas"] == "3"
    assert replaced["id"].startswith("recorded-") and replaced["id"] != deployment["id"]

    destroyed = run(cli_config, root, "destroy", "-auto-approve", "-var=replicas=3", env=env)
    assert destroyed.returncode == 0, destroyed.stderr
    assert _state(cli_config, root, env) == {}

    # The log has every apply in the order the stand-in answered it.
    applies = [
        (a["type"], a["action"], a["state"]["spec"][0]["replicas"] if "spec" in a["state"] else "")
        for a in recorded_applies(log)
    ]
    assert applies == [
        ("kubernetes_namespace_v1", "create", ""),
        ("kubernetes_deployment_v1", "create", "2"),
        ("kubernetes_manifest", "create", ""),
        ("kubernetes_deployment_v1", "delete", "2"),
        ("kubernetes_deployment_v1", "create", "3"),
        ("kubernetes_manifest", "delete", ""),
        ("kubernetes_deployment_v1", "delete", "3"),
        ("kubernetes_namespace_v1", "delete", ""),
    ]


def test_record_mode_still_refuses_import(cli_config: Path, tmp_path: Path) -> None:
    """Only apply, read, upgrade and data sources are answered; an import is refused."""
    root = write(tmp_path / "root", {"main.tf": RECORD_ROOT})
    assert_valid(init_and_validate(cli_config, root))
    env = record_env()
    done = run(cli_config, root, "import", "kubernetes_namespace_v1.serving", "serving", env=env)
    assert done.returncode == 1
    assert (
        "terraform-provider-kubernetes here is a schema stand-in in record mode: "
        "ImportResourceState is refused"
    ) in " ".join(done.stderr.split()), done.stderr


def test_unknown_mode_fails_loudly(cli_config: Path, tmp_path: Path) -> None:
    """A misspelt mode is an error, not a silent fall-back to refusals."""
    root = write(tmp_path / "root", {"main.tf": RECORD_ROOT})
    init = run(cli_config, root, "init", "-backend=false", "-input=false")
    assert init.returncode == 0, init.stderr
    done = run(cli_config, root, "validate", env={MODE_ENV: "recrod"})
    assert done.returncode == 1
    assert "SCHEMA_PROVIDER_MODE='recrod' is not a mode of the schema stand-in" in (
        " ".join(done.stderr.split())
    ), done.stderr
