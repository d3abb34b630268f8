"""Finding the terraform (or OpenTofu) binary and refusing one that is missing or too old."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gpuplat.errors import ToolMissingError
from gpuplat.terraform.decoded import as_object, get_str, loads

ENV_VAR = "GPUPLAT_TERRAFORM"
"""Names the binary: ``terraform``, ``tofu``, or a path to either."""

Flavor = Literal["terraform", "tofu"]

_VERSION = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?")
_INSTALL_HINT = (
    "Install Terraform >= {min} (https://developer.hashicorp.com/terraform/install) or "
    "OpenTofu >= {min}, or set {env} to the binary's path."
)


@dataclass(frozen=True, slots=True)
class Version:
    """A semantic version as terraform prints it; a pre-release sorts before its release."""

    major: int
    minor: int
    patch: int
    prerelease: str = ""

    @property
    def key(self) -> tuple[int, int, int, int, str]:
        return (self.major, self.minor, self.patch, 0 if self.prerelease else 1, self.prerelease)

    def at_least(self, other: Version) -> bool:
        return self.key >= other.key

    def __str__(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return f"{core}-{self.prerelease}" if self.prerelease else core


MIN_VERSION = Version(1, 10, 0)
"""The S3 backend's ``use_lockfile`` (state locking without DynamoDB) arrived in 1.10."""


def parse_version(text: str) -> Version:
    """Parse ``1.11.4``, ``v1.10.0`` or ``1.10.0-beta1``.

    Raises:
        ValueError: No version number in ``text``.
    """
    match = _VERSION.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not a version: {text!r}")
    major, minor, patch, pre = match.groups()
    return Version(int(major), int(minor), int(patch), pre or "")


@dataclass(frozen=True, slots=True)
class TerraformBinary:
    """A terraform or tofu executable that was found and whose version was checked."""

    path: str
    version: Version
    flavor: Flavor = "terraform"
    platform: str = ""


def _resolve(spec: str, environ: Mapping[str, str]) -> str | None:
    if os.sep in spec or (os.altsep and os.altsep in spec):
        path = Path(spec).expanduser()
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    return shutil.which(spec, path=environ.get("PATH"))


def _flavor(path: str) -> Flavor:
    return "tofu" if "tofu" in Path(path).name.lower() else "terraform"


def read_version(path: str, *, timeout: float = 30.0) -> tuple[Version, str]:
    """Run ``PATH version -json`` and return the version and platform it reports.

    Raises:
        ToolMissingError: It cannot run, fails, or prints no version.
    """
    argv = [path, "version", "-json"]
    env = {**os.environ, "CHECKPOINT_DISABLE": "1"}
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolMissingError(
            f"cannot run `{' '.join(argv)}`: {exc}",
            hint=f"Check that {path} is a working terraform or tofu binary.",
        ) from exc
    try:
        data = as_object(loads(done.stdout))
        version = parse_version(get_str(data, "terraform_version"))
    except ValueError as exc:
        tail = (done.stderr.strip() or done.stdout.strip())[-300:]
        raise ToolMissingError(
            f"`{' '.join(argv)}` printed no version (exit {done.returncode})",
            hint=f"Check that {path} is terraform or tofu >= {MIN_VERSION}.",
            details=(tail,) if tail else (),
        ) from exc
    return version, get_str(data, "platform")


def find_binary(
    spec: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    minimum: Version = MIN_VERSION,
) -> TerraformBinary:
    """Find the binary to run and check its version.

    ``spec`` wins, then ``$GPUPLAT_TERRAFORM``; with neither, ``terraform`` on PATH and then
    ``tofu`` on PATH.

    Raises:
        ToolMissingError: Not found, not runnable, or older than ``minimum``.
    """
    env = os.environ if environ is None else environ
    configured = spec or env.get(ENV_VAR) or None
    candidates = [configured] if configured else ["terraform", "tofu"]
    path = next((p for c in candidates if (p := _resolve(c, env)) is not None), None)
    hint = _INSTALL_HINT.format(min=minimum, env=ENV_VAR)
    if path is None:
        where = f"`{configured}`" if configured else "`terraform` or `tofu` on PATH"
        source = f" (from {ENV_VAR})" if configured and not spec else ""
        raise ToolMissingError(f"terraform binary not found: no {where}{source}", hint=hint)
    version, platform = read_version(path)
    if not version.at_least(minimum):
        raise ToolMissingError(
            f"{path} is version {version}; gpuplat needs {minimum} or later",
            hint=(f"The S3 backend's `use_lockfile` state locking needs {minimum}+. " + hint),
        )
    return TerraformBinary(path=path, version=version, flavor=_flavor(path), platform=platform)
