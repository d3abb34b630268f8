"""`gpuplat init`: every example writes a project that validates; nothing is clobbered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat import __version__
from gpuplat.app.init import DEFAULT_EXAMPLE, list_examples
from tests.support.cli import run

EXAMPLES = [name for name, _ in list_examples()]


def test_known_examples() -> None:
    assert {"gke-l4-vllm", "gke-h100-mig"} <= set(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_round_trip(example: str, tmp_path: Path) -> None:
    result = run("init", "--example", example, tmp_path / "p")
    assert result.exit_code == 0, result.stderr
    project = tmp_path / "p"
    spec = (project / "gpuplat.yaml").read_text(encoding="utf-8")
    assert spec.startswith("# yaml-language-server: $schema=.gpuplat/schema/spec.json\n")
    for overlay in ("envs/dev.yaml", "envs/prod.yaml"):
        text = (project / overlay).read_text(encoding="utf-8")
        assert text.startswith("# yaml-language-server: $schema=../.gpuplat/schema/overlay.json\n")
    checked = run("validate", "--strict", cwd=project)
    assert checked.exit_code == 0, checked.stderr
    # Notes (e.g. a spot preemption's notice) come before the verdict, the queue arithmetic after
    # it, indented; no diagnostics.
    lines = checked.stderr.splitlines()
    verdict = lines.index("valid: dev, prod")
    assert all(line.startswith("Note: ") for line in lines[:verdict])
    assert all(line.startswith("  ") for line in lines[verdict + 1 :])


def test_default_example_is_gke_l4_vllm(tmp_path: Path) -> None:
    result = run("init", tmp_path)
    assert result.exit_code == 0
    assert "gke-l4-vllm:" in (tmp_path / "gpuplat.yaml").read_text(encoding="utf-8")


def test_init_into_current_project_dir(tmp_path: Path) -> None:
    result = run("init", cwd=tmp_path)
    assert result.exit_code == 0
    assert result.stderr.endswith("Next: gpuplat validate\n")
    assert (tmp_path / "gpuplat.yaml").is_file()


def test_init_never_overwrites_without_force(tmp_path: Path) -> None:
    (tmp_path / "envs").mkdir()
    (tmp_path / "envs" / "prod.yaml").write_text("# mine\n", encoding="utf-8")
    result = run("init", tmp_path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: 1 file already exist in {tmp_path}\n"
        "  envs/prod.yaml\n"
        "Hint: nothing was written; pass --force to overwrite them, or init into an empty folder\n"
    )
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["envs", "prod.yaml"]
    assert (tmp_path / "envs" / "prod.yaml").read_text(encoding="utf-8") == "# mine\n"


def test_init_force_overwrites(tmp_path: Path) -> None:
    (tmp_path / "gpuplat.yaml").write_text("# mine\n", encoding="utf-8")
    assert run("init", "--force", tmp_path).exit_code == 0
    assert (tmp_path / "gpuplat.yaml").read_text(encoding="utf-8") != "# mine\n"


def test_unknown_example(tmp_path: Path) -> None:
    result = run("init", "--example", "gke-tpu", tmp_path)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no example named 'gke-tpu'\nHint: examples: ")
    assert not any(tmp_path.iterdir())


def test_list_examples() -> None:
    result = run("init", "--list")
    assert result.exit_code == 0
    firsts = [line for line in result.stdout.splitlines() if not line.startswith(" ")]
    assert [line.split()[0] for line in firsts] == sorted(EXAMPLES)
    assert [line for line in firsts if "(default)" in line] == [
        next(line for line in firsts if line.startswith(DEFAULT_EXAMPLE + " "))
    ]
    # Whole sentences: each description ends where its spec's comment block ends.
    text = " ".join(line.strip() for line in result.stdout.splitlines())
    assert text.count(".") >= len(EXAMPLES)
    assert "serving a mid-size model on 3g.40gb slices." in text


def test_written_schema_matches_schema_command(tmp_path: Path) -> None:
    run("init", tmp_path)
    written = json.loads((tmp_path / ".gpuplat/schema/spec.json").read_text(encoding="utf-8"))
    printed = json.loads(run("schema").stdout)
    assert written == printed
    overlay = json.loads(run("schema", "--overlay").stdout)

    def keys(node: object) -> set[str]:
        if isinstance(node, dict):
            return set(node) | {k for v in node.values() for k in keys(v)}
        if isinstance(node, list):
            return {k for v in node for k in keys(v)}
        return set()

    assert "required" not in keys(overlay)
    assert "required" in keys(printed)
    assert "environments" not in overlay["properties"]


def test_workflow_install_step_fails_clearly(tmp_path: Path) -> None:
    """The workflow's install step, run by bash as the runner would, on a source that is not there."""
    import subprocess
    import sys

    import yaml

    assert run("init", tmp_path).exit_code == 0
    workflow = yaml.safe_load((tmp_path / ".github/workflows/gpuplat.yml").read_text())
    install = next(
        s for s in workflow["jobs"]["check"]["steps"] if s.get("name") == "install gpuplat"
    )
    missing = tmp_path / "no-such-gpuplat.whl"
    done = subprocess.run(
        [
            "bash",
            "-e",
            "-c",
            install["run"].replace("pip install", f"{sys.executable} -m pip install"),
        ],
        env={"GPUPLAT_INSTALL": str(missing), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert (
        f"::error::cannot install gpuplat from '{missing}': set the repository variable "
        "GPUPLAT_INSTALL (see the top of this workflow)"
    ) in done.stdout


def test_init_writes_makefile_and_ci_workflow(tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess

    import yaml

    assert run("init", tmp_path).exit_code == 0
    workflow = yaml.safe_load((tmp_path / ".github/workflows/gpuplat.yml").read_text())
    assert workflow["jobs"]["plan"]["strategy"]["matrix"]["env"] == ["dev", "prod"]
    assert workflow["jobs"]["apply"]["strategy"]["max-parallel"] == 1
    steps = [s.get("run", "") for s in workflow["jobs"]["apply"]["steps"]]
    assert any('gpuplat apply "${{ matrix.env }}" --yes' in s for s in steps)
    # The install source is explicit, pinned, and overridable by a repository variable.
    assert workflow["env"]["GPUPLAT_INSTALL"] == (
        f"${{{{ vars.GPUPLAT_INSTALL || 'gpuplat=={__version__}' }}}}"
    )
    install = next(
        s for s in workflow["jobs"]["check"]["steps"] if s.get("name") == "install gpuplat"
    )
    assert 'pip install "$GPUPLAT_INSTALL"' in install["run"]
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # Run as a top-level make, whatever make is running these tests.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "plan", "ENV=prod"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert done.stdout.strip() == "gpuplat plan prod || test $? -eq 10"
