"""The seam against the real terraform binary: lifecycle, failures, and Ctrl-C mid-apply."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gpuplat.errors import ExitCode, TerraformError
from gpuplat.terraform import (
    Action,
    ApplyComplete,
    Event,
    OutputValue,
    PlannedChange,
    ProvisionEvent,
    Terraform,
    TerraformBinary,
    TerraformInterrupted,
    Version,
    find_binary,
)
from tests.support.realparts import terraform_bin, terraform_env

LIFECYCLE = """\
terraform {
  backend "local" {}
}

variable "greeting" {
  type    = string
  default = "hello"
}

resource "terraform_data" "a" {
  input = var.greeting
}

resource "terraform_data" "b" {
  triggers_replace = [terraform_data.a.output]
}

output "greeting" {
  value = terraform_data.a.output
}
"""

FAILING = """\
resource "terraform_data" "ok" {
  input = "fine"
}

resource "terraform_data" "boom" {
  provisioner "local-exec" {
    command = "echo about to fail; false"
  }
}
"""

SLOW = """\
variable "sleep" {
  type = number
}

resource "terraform_data" "fast" {
  input = "x"
}

resource "terraform_data" "slow" {
  depends_on = [terraform_data.fast]
  provisioner "local-exec" {
    command = "sleep ${var.sleep}"
  }
}
"""

MakeTerraform = Callable[[str], Terraform]
SLEEP = "58.25"
"""An odd duration, so the test can tell its own `sleep` from any other."""


def wait_until_gone(cmdline: list[str], timeout: float = 5.0) -> bool:
    """True once no process runs exactly ``cmdline`` (zombies have no cmdline)."""
    wanted = ("\0".join(cmdline) + "\0").encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = False
        for proc in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                running = running or proc.read_bytes() == wanted
            except OSError:
                continue
        if not running:
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def make_terraform(tmp_path: Path) -> MakeTerraform:
    """Write a root module from HCL and return a seam for it, data dir outside the root."""
    binary = find_binary(terraform_bin())
    cli_config = Path(terraform_env(tmp_path)["TF_CLI_CONFIG_FILE"])

    def make(hcl: str) -> Terraform:
        root = tmp_path / "root"
        root.mkdir()
        (root / "main.tf").write_text(hcl, encoding="utf-8")
        return Terraform(
            binary,
            root,
            data_dir=tmp_path / "data",
            plugin_cache_dir=tmp_path / "plugin-cache",
            cli_config_file=cli_config,
        )

    return make


@pytest.mark.terraform
def test_init_plan_show_apply_replan_output(make_terraform: MakeTerraform, tmp_path: Path) -> None:
    tf = make_terraform(LIFECYCLE)
    state = tmp_path / "state" / "terraform.tfstate"
    init = tf.init(backend_config={"path": str(state)})
    assert init.returncode == 0
    assert (tmp_path / "data").is_dir() and (tmp_path / "plugin-cache").is_dir()
    assert not (tf.cwd / ".terraform").exists()

    seen: list[Event] = []
    plan = tf.plan(tmp_path / "first.plan", on_event=seen.append)
    assert plan.has_changes and plan.returncode == 2
    assert plan.plan_file is not None and plan.plan_file.is_file()
    assert sorted(c.resource.addr for c in plan.planned_changes) == [
        "terraform_data.a",
        "terraform_data.b",
    ]
    assert plan.summary is not None and plan.summary.add == 2
    assert [e.type for e in seen] == [e.type for e in plan.events]
    assert sum(isinstance(e, PlannedChange) for e in seen) == 2

    shown = tf.show_plan(tmp_path / "first.plan")
    assert shown.has_changes
    assert shown.counts() == {Action.CREATE: 2}

    applied: list[Event] = []
    result = tf.apply(tmp_path / "first.plan", on_event=applied.append)
    assert sorted(e.resource.addr for e in applied if isinstance(e, ApplyComplete)) == [
        "terraform_data.a",
        "terraform_data.b",
    ]
    assert result.summary is not None and result.summary.add == 2
    assert state.is_file()

    again = tf.plan(tmp_path / "second.plan")
    assert not again.has_changes and again.returncode == 0
    assert not tf.show_plan(tmp_path / "second.plan").has_changes
    assert tf.outputs() == {
        "greeting": OutputValue(name="greeting", value="hello", type="string", sensitive=False)
    }
    assert tf.state_list() == ["terraform_data.a", "terraform_data.b"]
    assert tf.validate().valid
    assert not tf.plan(refresh_only=True).has_changes

    teardown = tf.plan(tmp_path / "destroy.plan", destroy=True)
    assert teardown.has_changes
    assert tf.show_plan(tmp_path / "destroy.plan").counts() == {Action.DELETE: 2}
    tf.apply(tmp_path / "destroy.plan")
    assert tf.state_list() == []


@pytest.mark.terraform
def test_failing_apply_raises_with_located_diagnostics(
    make_terraform: MakeTerraform, tmp_path: Path
) -> None:
    tf = make_terraform(FAILING)
    tf.init()
    tf.plan(tmp_path / "p.plan")
    with pytest.raises(TerraformError) as caught:
        tf.apply(tmp_path / "p.plan")
    error = caught.value
    assert error.exit_code is ExitCode.TERRAFORM
    assert error.returncode == 1
    assert error.argv[1] == "apply" and "-json" in error.argv
    assert error.message == f"terraform apply failed in {tf.cwd} (exit 1)"
    (diag,) = error.diagnostics
    assert (diag.summary, diag.filename, diag.line, diag.address) == (
        "local-exec provisioner error",
        "main.tf",
        6,
        "terraform_data.boom",
    )
    assert error.details[:2] == (
        "Error: local-exec provisioner error",
        f"  {tf.cwd}/main.tf:6:28  terraform_data.boom",
    )
    # terraform keeps the half-made resource (tainted) so the next plan replaces it.
    assert tf.state_list() == ["terraform_data.boom", "terraform_data.ok"]


@pytest.mark.terraform
def test_invalid_configuration_fails_validate(make_terraform: MakeTerraform) -> None:
    tf = make_terraform('resource "terraform_data" "x" {\n  inputs = 1\n}\n')
    tf.init()
    with pytest.raises(TerraformError) as caught:
        tf.validate()
    (diag,) = caught.value.diagnostics
    assert (diag.summary, diag.location()) == ("Unsupported argument", "main.tf:2:3")
    assert caught.value.returncode == 1


@pytest.mark.terraform
def test_ctrl_c_during_apply_stops_terraform_gracefully(
    make_terraform: MakeTerraform, tmp_path: Path
) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("SIGINT is only delivered to the main thread")
    tf = make_terraform(SLOW)
    tf.init()
    tf.plan(tmp_path / "slow.plan", variables={"sleep": SLEEP})

    def press_ctrl_c_once_sleeping(event: Event) -> None:
        # The terminal's Ctrl-C: SIGINT to gpuplat itself, raised as KeyboardInterrupt here.
        if isinstance(event, ProvisionEvent) and event.type == "provision_progress":
            os.kill(os.getpid(), signal.SIGINT)

    started = time.monotonic()
    with pytest.raises(TerraformInterrupted) as caught:
        tf.apply(tmp_path / "slow.plan", on_event=press_ctrl_c_once_sleeping)
    assert time.monotonic() - started < 30, "terraform waited for the sleep instead of stopping"
    error = caught.value
    assert error.exit_code is ExitCode.INTERRUPTED
    assert error.in_progress == ("terraform_data.slow",)
    assert not error.forced
    assert error.message == (
        f"terraform apply in {tf.cwd} was interrupted (Ctrl-C); "
        "terraform stopped gracefully (exit 1)"
    )
    assert error.details[0].startswith("in progress: terraform_data.slow (create), then errored")
    assert any(d.startswith("terraform: Interrupt received.") for d in error.details)
    assert f"Error running command 'sleep {SLEEP}': signal: killed" in error.diagnostics[0].detail
    # Terraform kills only local-exec's shell; its `sleep` must not outlive the interrupt.
    assert wait_until_gone(["sleep", SLEEP]), "local-exec's child outlived the interrupt"

    # The state is intact and unlocked (plan takes the lock with -lock-timeout=0s).
    assert tf.state_list() == ["terraform_data.fast", "terraform_data.slow"]
    retry = tf.plan(tmp_path / "retry.plan", variables={"sleep": "0"})
    assert [(c.resource.addr, c.action, c.reason) for c in retry.planned_changes] == [
        ("terraform_data.slow", "replace", "tainted")
    ]
    tf.apply(tmp_path / "retry.plan")
    assert not tf.plan(variables={"sleep": "0"}).has_changes


def test_environment_and_unlock_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOGC", raising=False)
    monkeypatch.setenv("TF_CLI_ARGS_plan", "-no-json")
    monkeypatch.setenv("AWS_PROFILE", "kept")
    binary = TerraformBinary(path="/opt/tf bin/terraform", version=Version(1, 11, 4))
    tf = Terraform(
        binary,
        tmp_path / "envs dev",
        data_dir=tmp_path / "data dir",
        plugin_cache_dir=tmp_path / "cache",
        cli_config_file=tmp_path / "rc",
        env={"TF_LOG": "warn"},
    )
    env = tf.environment()
    assert "TF_CLI_ARGS_plan" not in env
    assert env["AWS_PROFILE"] == "kept"
    assert {k: env[k] for k in ("TF_IN_AUTOMATION", "TF_INPUT", "CHECKPOINT_DISABLE")} == {
        "TF_IN_AUTOMATION": "1",
        "TF_INPUT": "0",
        "CHECKPOINT_DISABLE": "1",
    }
    assert env["TF_DATA_DIR"] == str(tmp_path / "data dir")
    assert env["TF_PLUGIN_CACHE_DIR"] == str(tmp_path / "cache")
    assert env["TF_CLI_CONFIG_FILE"] == str(tmp_path / "rc")
    assert env["TF_LOG"] == "warn"
    assert env["GOGC"] == "200"  # unset here: gpuplat's default for terraform's Go runtime
    monkeypatch.setenv("GOGC", "150")
    assert tf.environment()["GOGC"] == "150"  # the user's wins
    assert tf.unlock_command("abc-123") == (
        f"TF_DATA_DIR='{tmp_path}/data dir' '/opt/tf bin/terraform' "
        f"'-chdir={tmp_path}/envs dev' force-unlock -force abc-123"
    )


@pytest.mark.terraform
def test_terraform_and_what_it_starts_get_the_go_gc_setting(
    make_terraform: MakeTerraform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GOGC", raising=False)
    seen = tmp_path / "gogc"
    tf = make_terraform(
        'resource "terraform_data" "gogc" {\n'
        '  provisioner "local-exec" {\n'
        f'    command = "printf %s \\"$GOGC\\" > {seen}"\n'
        "  }\n}\n"
    )
    tf.init()
    tf.apply(tf.plan(tmp_path / "gogc.plan").plan_file or tmp_path / "missing")
    assert seen.read_text("utf-8") == "200"
