"""Realistic existing Terraform repositories to vendor into: their own layout and pins."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from tests.eks.terraform import mirror_env
from tests.support.realparts import terraform_bin

INTO = "terraform/modules/gpuplat"
"""Where the tests vendor: the repository's own modules folder, not gpuplat's default."""
ROOT = "terraform/live/prod/us-east-1"

VERSIONS = """\
terraform {{
  required_version = "{terraform}"

  required_providers {{
    aws = {{
      source  = "hashicorp/aws"
      version = "{aws}"
    }}{google}
  }}
}}
"""
GOOGLE = """
    google = {{
      source  = "hashicorp/google"
      version = "{version}"
    }}"""


def make_repo(
    path: Path,
    *,
    terraform: str = ">= 1.10",
    aws: str = "~> 5.40",
    google: str | None = None,
) -> Path:
    """A platform team's repository: live roots per environment and region, own modules.

    Its prod root pins ``terraform``, ``aws`` and (when given) ``google``; the staging root and the
    team's own tagging module pin compatibly, in the old string form for one of them.
    """
    files = {
        "README.md": "# acme platform\n\nLive roots in terraform/live, shared modules in terraform/modules.\n",
        f"{ROOT}/versions.tf": VERSIONS.format(
            terraform=terraform,
            aws=aws,
            google=GOOGLE.format(version=google) if google else "",
        ),
        f"{ROOT}/main.tf": (
            'provider "aws" {\n  region = "us-east-1"\n}\n\n'
            'module "tags" {\n  source = "../../../modules/tags"\n  team   = "ml-platform"\n}\n'
        ),
        "terraform/live/staging/us-east-1/versions.tf": (
            'terraform {\n  required_providers {\n    aws = "~> 5.0"\n  }\n}\n'
        ),
        "terraform/live/staging/us-east-1/main.tf": 'provider "aws" {\n  region = "us-east-1"\n}\n',
        "terraform/modules/tags/main.tf": (
            'variable "team" {\n  type = string\n}\n\n'
            'output "tags" {\n  value = { team = var.team, managed-by = "terraform" }\n}\n'
        ),
        "terraform/modules/tags/versions.tf": 'terraform {\n  required_version = ">= 1.3"\n}\n',
    }
    for rel, text in files.items():
        target = path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return path


def snapshot(path: Path) -> dict[str, str]:
    """Every file under ``path`` with the sha256 of its bytes: to prove nothing was written."""
    return {
        p.relative_to(path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.rglob("*"))
        if p.is_file()
    }


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there, once) by ``new`` in a file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is in {path} {text.count(old)} times"
    path.write_text(text.replace(old, new), encoding="utf-8")


def validate(root: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """Real ``terraform init -backend=false`` and ``validate`` in ``root``, aws from the mirror."""
    env = mirror_env(tmp)
    env["TF_DATA_DIR"] = str(tmp / "tfdata")
    init = subprocess.run(
        [terraform_bin(), "init", "-backend=false", "-input=false", "-no-color"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert init.returncode == 0, init.stdout + init.stderr
    return subprocess.run(
        [terraform_bin(), "validate", "-no-color"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def hand_call(repo: Path, root: str, module: str, version: str, into: str = INTO) -> Path:
    """A module block the team wrote in ``root`` calling a vendored module (inputs left out:
    only the constraint check reads it)."""
    depth = len(Path(root).parts)
    source = "/".join([".."] * depth) + f"/{into}/{module}/{version}"
    target = repo / root / f"hand_{module}.tf"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        f'module "{module.replace("-", "_")}" {{\n  source = "{source}"\n}}\n', encoding="utf-8"
    )
    return target
