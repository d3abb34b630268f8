"""`gpuplat destroy` where nobody can confirm it refuses before terraform runs.

No terminal and no ``--yes``: the question could never be answered, so `destroy` refuses (7)
before ``terraform init``, which would reach the state backend and fetch providers for
nothing. Real terraform is on the PATH given to gpuplat; the proof that it never ran is that
its working data (``.gpuplat/tfdata``) is never created.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.realparts import terraform_bin

pytestmark = [pytest.mark.terraform]


def gpuplat(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update({"GPUPLAT_TERRAFORM": terraform_bin(), "NO_COLOR": "1"})
    return subprocess.run(
        [sys.executable, "-m", "gpuplat", *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("env", ["prod", "dev"])
def test_destroy_without_yes_and_without_a_terminal_refuses_before_terraform_init(
    tmp_path: Path, env: str
) -> None:
    project = tmp_path / "p"
    assert gpuplat("init", "--example", "eks-l4-vllm", str(project), cwd=tmp_path).returncode == 0
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    for environment in spec["environments"]:
        # Nothing listens there: an init that ran would fail on it, not hang.
        environment["backend"]["endpoint"] = "http://127.0.0.1:9"
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert gpuplat("render", cwd=project).returncode == 0

    refused = gpuplat("destroy", env, "--stage", "infra", cwd=project)
    assert refused.returncode == 7, refused.stdout + refused.stderr
    assert refused.stderr.startswith(f"Error: destroying {env} needs a confirmation\n")
    assert "pass --yes" in refused.stderr
    assert not (project / ".gpuplat" / "tfdata").exists()
