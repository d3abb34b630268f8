"""The schema-serving stand-in providers (tools/schema-provider), built once per test session.

Real `terraform init`, `validate` and `plan` run against them: they serve the real google,
kubernetes and helm schemas, plan every resource as configured (computed values unknown) and
refuse to read or apply. If they cannot be built the caller skips on a developer machine and
fails under CI=true (tests/support/realparts.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
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


def build_stand_ins() -> Path:
    """Build (or reuse) the stand-in providers; the CLI config that installs them."""
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
    cli_config: Path, workdir: Path, *args: str, timeout: int = 180
) -> subprocess.CompletedProcess[str]:
    """Run terraform in ``workdir`` with the stand-ins' CLI config."""
    env = terraform_env(workdir.parent)
    env["TF_CLI_CONFIG_FILE"] = str(cli_config)
    env.pop("TF_PLUGIN_CACHE_DIR", None)
    return subprocess.run(
        [terraform_bin(), *args, "-no-color"],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
