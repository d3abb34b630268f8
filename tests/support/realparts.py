"""Locate the real parts (terraform, the AWS provider mirror, provider schemas) for tests.

The provider schemas are vendored (trimmed, ``src/gpuplat/conformance/schemas/``), so only
terraform and the aws provider have to be on the machine.

On a developer machine a missing part skips the test with the reason; under ``CI=true`` it fails,
because a skipped check must never be reported as passing there.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing(reason: str) -> None:
    """Skip (developer machine) or fail (CI) because a real part is not here."""
    if in_ci():
        pytest.fail(f"real part missing under CI=true: {reason}", pytrace=False)
    pytest.skip(f"real part missing: {reason}")


def terraform_bin() -> str:
    path = shutil.which(os.environ.get("GPUPLAT_TERRAFORM", "terraform"))
    if path is None:
        missing("the `terraform` binary is not on PATH")
    assert path is not None
    return path


def graphviz_dot() -> str:
    path = shutil.which("dot")
    if path is None:
        missing("Graphviz' `dot` is not on PATH (apt-get install graphviz)")
    assert path is not None
    return path


def prometheus_bin() -> str:
    """Debian's ``prometheus`` package (installed by .ci/run)."""
    path = shutil.which("prometheus")
    if path is None:
        missing("the `prometheus` binary is not on PATH (apt-get install prometheus)")
    assert path is not None
    return path


def provider_schema_dir() -> Path:
    """``$GPUPLAT_PROVIDER_SCHEMAS`` when set, else the trimmed schemas vendored in the package."""
    from gpuplat.conformance.files import BUNDLED

    env = os.environ.get("GPUPLAT_PROVIDER_SCHEMAS")
    candidate = Path(env) if env else BUNDLED
    if (candidate / "google-6.50.0.json").is_file():
        return candidate
    missing(f"provider schemas not found in {candidate} (GPUPLAT_PROVIDER_SCHEMAS={env!r})")
    raise AssertionError("unreachable")


def aws_provider_mirror() -> Path:
    env = os.environ.get("GPUPLAT_PROVIDER_MIRROR")
    candidates = [Path(env)] if env else []
    candidates.append(Path("/opt/tf-plugins"))
    for candidate in candidates:
        if any(candidate.glob("registry.terraform.io/hashicorp/aws/*/*/terraform-provider-aws*")):
            return candidate
    missing(f"no hashicorp/aws provider in a filesystem mirror at {candidates}")
    raise AssertionError("unreachable")


def terraform_env(tmp: Path) -> dict[str, str]:
    """Environment for running terraform in tests: no user CLI config, no checkpoint calls."""
    cfg = tmp / "terraformrc"
    if not cfg.exists():
        cfg.write_text("disable_checkpoint = true\n", encoding="utf-8")
    env = dict(os.environ)
    env.update(
        {
            "TF_CLI_CONFIG_FILE": str(cfg),
            "TF_IN_AUTOMATION": "1",
            "CHECKPOINT_DISABLE": "1",
            "TF_INPUT": "0",
        }
    )
    return env
