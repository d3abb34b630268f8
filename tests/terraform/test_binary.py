"""Finding the terraform binary: versions, missing and too-old binaries, the real one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gpuplat.errors import ExitCode, ToolMissingError
from gpuplat.terraform import MIN_VERSION, Version, find_binary, parse_version
from tests.support.realparts import terraform_bin


def fake_binary(directory: Path, name: str, stdout: str, *, rc: int = 0) -> Path:
    """A shell script that answers `version -json` the way a terraform build would."""
    path = directory / name
    path.write_text(f"#!/bin/sh\ncat <<'EOF'\n{stdout}\nEOF\nexit {rc}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def version_json(version: str) -> str:
    return json.dumps({"terraform_version": version, "platform": "linux_amd64"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.11.4", Version(1, 11, 4)),
        ("v1.10.0", Version(1, 10, 0)),
        ("1.10.0-beta1", Version(1, 10, 0, "beta1")),
        (" 1.9.8\n", Version(1, 9, 8)),
    ],
)
def test_parse_version(text: str, expected: Version) -> None:
    assert parse_version(text) == expected


@pytest.mark.parametrize("text", ["", "1.10", "terraform 1.10.0", "1.x.0"])
def test_parse_version_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="not a version"):
        parse_version(text)


def test_version_ordering_puts_prereleases_first() -> None:
    assert Version(1, 10, 0).at_least(MIN_VERSION)
    assert Version(1, 11, 0).at_least(MIN_VERSION)
    assert not Version(1, 10, 0, "rc1").at_least(MIN_VERSION)
    assert not Version(1, 9, 99).at_least(MIN_VERSION)
    assert str(Version(1, 10, 0, "rc1")) == "1.10.0-rc1"


def test_missing_binary(tmp_path: Path) -> None:
    with pytest.raises(ToolMissingError) as caught:
        find_binary(environ={"PATH": str(tmp_path)})
    error = caught.value
    assert error.exit_code is ExitCode.TOOL_MISSING
    assert error.message == "terraform binary not found: no `terraform` or `tofu` on PATH"
    assert error.hint is not None
    assert "Install Terraform >= 1.10.0" in error.hint
    assert "GPUPLAT_TERRAFORM" in error.hint


def test_missing_binary_named_by_the_environment(tmp_path: Path) -> None:
    with pytest.raises(ToolMissingError) as caught:
        find_binary(environ={"PATH": str(tmp_path), "GPUPLAT_TERRAFORM": "tofu"})
    assert caught.value.message == "terraform binary not found: no `tofu` (from GPUPLAT_TERRAFORM)"


def test_path_that_is_not_executable(tmp_path: Path) -> None:
    script = fake_binary(tmp_path, "terraform", version_json("1.11.0"))
    script.chmod(0o644)
    with pytest.raises(ToolMissingError, match=r"not found: no `.*terraform`"):
        find_binary(str(script), environ={"PATH": ""})


def test_too_old(tmp_path: Path) -> None:
    script = fake_binary(tmp_path, "terraform", version_json("1.9.8"))
    with pytest.raises(ToolMissingError) as caught:
        find_binary(str(script), environ={})
    error = caught.value
    assert error.message == f"{script} is version 1.9.8; gpuplat needs 1.10.0 or later"
    assert error.hint is not None
    assert error.hint.startswith("The S3 backend's `use_lockfile` state locking needs 1.10.0+.")


def test_garbage_version_output(tmp_path: Path) -> None:
    script = fake_binary(tmp_path, "terraform", "Terraform v1.11.0", rc=0)
    with pytest.raises(ToolMissingError, match="printed no version") as caught:
        find_binary(str(script))
    assert caught.value.details == ("Terraform v1.11.0",)


def test_found_on_path_and_named_tofu(tmp_path: Path) -> None:
    fake_binary(tmp_path, "tofu", version_json("1.10.2"))
    found = find_binary(environ={"PATH": str(tmp_path)})
    assert (found.path, found.version, found.flavor, found.platform) == (
        str(tmp_path / "tofu"),
        Version(1, 10, 2),
        "tofu",
        "linux_amd64",
    )


def test_explicit_spec_beats_the_environment(tmp_path: Path) -> None:
    good = fake_binary(tmp_path, "terraform", version_json("1.12.0"))
    found = find_binary(str(good), environ={"GPUPLAT_TERRAFORM": "/nonexistent/terraform"})
    assert found.version == Version(1, 12, 0)


@pytest.mark.terraform
def test_the_real_binary() -> None:
    real = terraform_bin()
    found = find_binary(real, environ=dict(os.environ))
    assert found.path == real
    assert found.version.at_least(MIN_VERSION)
    assert found.flavor == "terraform"
    assert found.platform
