"""The schema-serving stand-in providers (tools/schema-provider), built once per test session.

Real `terraform init`, `validate` and `plan` run against them: they serve the real google,
kubernetes and helm schemas, plan every resource as configured (computed values unknown) and
refuse to read or apply. If they cannot be built the caller skips on a developer machine and
fails under CI=true (tests/support/realparts.py).

Record mode lets real `terraform apply` run on roots of those providers with nothing behind
them: pass ``env=record_env(log)`` (or ``RECORD_ENV``) to :func:`run`. Every apply is stored
as planned, unknown values as typed placeholders (``""``, ``0``, ``false``, empty collections,
``recorded-<hash>`` for an id), and appended to ``log``, which :func:`recorded_applies` reads
back. It proves what Terraform applied and in which order, never that a cluster ran it
(tools/schema-provider/README.md, "Record mode"). The real aws provider that
:func:`with_real_aws` adds ignores these variables.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from tests.support.realparts import (
    REPO,
    aws_provider_mirror,
    missing,
    provider_schema_dir,
    terraform_bin,
    terraform_env,
)

SETUP = REPO / "tools" / "schema-provider" / "setup.sh"
BUILD = REPO / "build" / "schema-provider"
PROVIDERS = {"google": "6.50.0", "kubernetes": "2.38.0", "helm": "3.0.2", "azurerm": "4.79.0"}

# Read by every stand-in process Terraform starts (schema_provider/record.py).
MODE_ENV = "SCHEMA_PROVIDER_MODE"
LOG_ENV = "SCHEMA_PROVIDER_RECORD_LOG"
RECORD_ENV: Mapping[str, str] = {MODE_ENV: "record"}


def record_env(log: Path | None = None) -> dict[str, str]:
    """Environment that turns record mode on, appending every apply to ``log`` when given."""
    return {**RECORD_ENV, **({LOG_ENV: str(log)} if log is not None else {})}


def recorded_applies(log: Path) -> list[dict[str, object]]:
    """The applies in ``log``, in the order the stand-ins answered them; [] when none.

    Each is ``{"provider", "type", "action" ("create" | "update" | "delete"), "cwd", "state"}``; the
    state is the one stored (for a delete, the one removed). A replace is a delete and a
    create (in that order unless ``create_before_destroy``).
    """
    if not log.is_file():
        return []
    lines = log.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


@cache
def build_stand_ins() -> Path:
    """Build (or reuse) the stand-in providers; the CLI config that installs them.

    Once per test process: setup.sh checks every input and starts six processes even when
    nothing changed (about a CPU second), and tests call this per root they plan.
    """
    terraform = terraform_bin()
    schemas = provider_schema_dir()
    if shutil.which("flock") is None:
        missing("`flock` (util-linux) is needed by tools/schema-provider/setup.sh")
    env = {**os.environ, "TERRAFORM": terraform, "PROVIDERS": " ".join(PROVIDERS)}
    try:
        done = subprocess.run(
            ["bash", str(SETUP), str(schemas), str(BUILD)],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except subprocess.TimeoutExpired:
        missing(f"{SETUP.relative_to(REPO)} did not finish in 600 s (pip hanging?)")
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln and not ln.startswith("WARNING:")]
        tail = "\n".join(lines[-6:])
        missing(
            f"the schema stand-in provider could not be built: `bash {SETUP.relative_to(REPO)}` "
            f"exited {done.returncode}:\n{tail}"
        )
    return Path(done.stdout.strip().splitlines()[-1])


def with_real_aws(stand_ins: Path, tmp_path: Path) -> Path:
    """The stand-ins' CLI config plus the real hashicorp/aws provider from its mirror (EKS roots)."""
    text = stand_ins.read_text(encoding="utf-8")
    block = (
        "  filesystem_mirror {\n"
        f'    path    = "{aws_provider_mirror()}"\n'
        '    include = ["registry.terraform.io/hashicorp/aws"]\n'
        "  }\n"
    )
    combined = text.replace("provider_installation {\n", "provider_installation {\n" + block, 1)
    path = tmp_path / "terraformrc"
    path.write_text(combined, encoding="utf-8")
    return path


def run(
    cli_config: Path,
    workdir: Path,
    *args: str,
    timeout: int = 180,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run terraform in ``workdir`` with the stand-ins' CLI config, plus ``env`` if given.

    Without ``env`` the stand-ins refuse to apply even if the calling process has
    SCHEMA_PROVIDER_MODE set: a test opts into record mode only by passing it.
    """
    environment = terraform_env(workdir.parent)
    environment.pop(MODE_ENV, None)
    environment.pop(LOG_ENV, None)
    environment.update(env or {})
    environment["TF_CLI_CONFIG_FILE"] = str(cli_config)
    environment.pop("TF_PLUGIN_CACHE_DIR", None)
    return subprocess.run(
        [terraform_bin(), *args, "-no-color"],
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
