"""Missing cloud credentials: Terraform's own text, then gpuplat's hint saying which part needs
them and how to provide them.

The state backends (GCS, S3) are built into terraform, so their refusals are real here; the
google provider cannot run on this machine, so its message is checked as the provider prints it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplat.targets import target
from tests.support.moto import write_cli_config
from tests.support.realparts import terraform_bin

pytestmark = pytest.mark.terraform


def plan_without_credentials(tmp_path: Path, example: str) -> subprocess.CompletedProcess[str]:
    project = tmp_path / "p"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("AWS_", "GOOGLE_", "CLOUDSDK_", "TF_", "CI"))
    }
    env.update(
        {
            "HOME": str(tmp_path),  # no ~/.aws, no gcloud application-default credentials
            "AWS_EC2_METADATA_DISABLED": "true",  # no instance role either
            "GPUPLAT_TERRAFORM": terraform_bin(),
            "TF_CLI_CONFIG_FILE": str(write_cli_config(tmp_path / "terraformrc")),
            "NO_COLOR": "1",
        }
    )
    gpuplat = [sys.executable, "-m", "gpuplat"]
    subprocess.run([*gpuplat, "init", "-x", example, str(project)], check=True, env=env)
    return subprocess.run(
        [*gpuplat, "plan", "dev"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_gcs_backend_without_google_credentials(tmp_path: Path) -> None:
    done = plan_without_credentials(tmp_path, "gke-l4-vllm")
    assert done.returncode == 6, done.stderr
    assert "could not find default credentials" in done.stderr  # terraform's own words
    assert (
        "Hint: the GCS state backend (terraform init) found no Google credentials: run "
        "`gcloud auth application-default login`"
    ) in done.stderr


def test_s3_backend_without_aws_credentials(tmp_path: Path) -> None:
    done = plan_without_credentials(tmp_path, "eks-l4-vllm")
    assert done.returncode == 6, done.stderr
    assert "No valid credential sources found" in done.stderr
    assert (
        "Hint: the S3 state backend (terraform init) found no AWS credentials: set AWS_PROFILE"
    ) in done.stderr


def test_google_provider_without_credentials_names_the_provider() -> None:
    # The google provider's diagnostic when no credentials are set (its transport config).
    text = (
        "Error: Attempted to load application default credentials since neither `credentials` "
        "nor `access_token` was set in the provider block.  No credentials loaded. To use your "
        "gcloud credentials, run 'gcloud auth application-default login'."
    )
    hint = target("gke").credentials_hint(text)
    assert hint is not None and hint.startswith("the google provider found no Google credentials")
    assert target("eks").credentials_hint(text) is None
