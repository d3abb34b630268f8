"""`terraform init` runs only when something it reads or wrote changed (real terraform).

A wrapper on the binary's path logs every terraform invocation: the test counts the inits
terraform really ran, not calls of gpuplat's runner.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplat.errors import TerraformError
from gpuplat.terraform import Terraform, find_binary
from gpuplat.terraform.initstamp import STAMP
from tests.support.realparts import aws_provider_mirror, terraform_bin

ROOT = """\
terraform {
  backend "local" {
    path = "a.tfstate"
  }
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "5.100.0"
    }
  }
}

module "m" {
  source = "../mod"
}

output "x" {
  value = module.m.x
}
"""


class Counted:
    """A root whose terraform runs through a wrapper that logs each invocation's verb."""

    def __init__(self, tmp_path: Path) -> None:
        self.log = tmp_path / "calls.log"
        wrapper = tmp_path / "bin" / "terraform"
        wrapper.parent.mkdir()
        wrapper.write_text(
            f'#!/bin/sh\necho "$1" >> {self.log}\nexec {terraform_bin()} "$@"\n', "utf-8"
        )
        wrapper.chmod(0o755)
        cli_config = tmp_path / "terraformrc"
        cli_config.write_text(
            "disable_checkpoint = true\nprovider_installation {\n"
            f'  filesystem_mirror {{\n    path = "{aws_provider_mirror()}"\n  }}\n}}\n',
            "utf-8",
        )
        self.root = tmp_path / "root"
        self.root.mkdir()
        (self.root / "main.tf").write_text(ROOT, "utf-8")
        self.module = tmp_path / "mod"
        self.module.mkdir()
        (self.module / "main.tf").write_text('output "x" {\n  value = 1\n}\n', "utf-8")
        self.data = tmp_path / "data"
        self.tf = Terraform(
            find_binary(str(wrapper)), self.root, data_dir=self.data, cli_config_file=cli_config
        )

    def inits(self) -> int:
        """How many times terraform init ran so far."""
        return self.log.read_text("utf-8").split().count("init")

    def init_runs(self) -> bool:
        """Call the runner's init; True when terraform init really ran."""
        before = self.inits()
        self.tf.init()
        return self.inits() == before + 1

    def edit(self, path: Path, old: str, new: str) -> None:
        text = path.read_text("utf-8")
        assert old in text
        path.write_text(text.replace(old, new), "utf-8")


@pytest.fixture
def counted(tmp_path: Path) -> Counted:
    root = Counted(tmp_path)
    assert root.init_runs()
    assert (root.data / STAMP).is_file()
    return root


@pytest.mark.terraform
def test_an_unchanged_root_is_not_initialised_again_and_still_plans(counted: Counted) -> None:
    assert not counted.init_runs()
    assert not counted.init_runs()
    plan = counted.tf.plan(counted.root.parent / "p.tfplan")
    assert plan.has_changes  # the output x is new
    assert counted.tf.show_plan(counted.root.parent / "p.tfplan").has_changes
    # A root rendered again with the same content (new files, same bytes) is still current.
    text = (counted.root / "main.tf").read_text("utf-8")
    (counted.root / "main.tf").unlink()
    (counted.root / "main.tf").write_text(text, "utf-8")
    assert not counted.init_runs()


@pytest.mark.terraform
def test_a_changed_module_source_or_module_is_initialised(counted: Counted) -> None:
    shutil.copytree(counted.module, counted.module.with_name("mod2"))
    counted.edit(counted.root / "main.tf", '"../mod"', '"../mod2"')
    assert counted.init_runs()
    assert not counted.init_runs()
    # A module that gains a module call of its own needs init too.
    (counted.module.with_name("mod2") / "nested.tf").write_text(
        'module "inner" {\n  source = "../mod"\n}\n', "utf-8"
    )
    assert counted.init_runs()
    assert not counted.init_runs()


@pytest.mark.terraform
def test_a_changed_backend_is_initialised_and_terraform_says_so(counted: Counted) -> None:
    counted.edit(counted.root / "main.tf", '"a.tfstate"', '"b.tfstate"')
    with pytest.raises(TerraformError, match="init failed"):
        counted.tf.init()
    assert counted.inits() == 2
    # After a failed init nothing is taken as current: the next init runs again.
    assert counted.tf.init(reconfigure=True).returncode == 0
    assert not counted.init_runs()
    # The backend record itself changed behind gpuplat's back.
    counted.edit(counted.data / "terraform.tfstate", '"b.tfstate"', '"c.tfstate"')
    assert counted.init_runs()


@pytest.mark.terraform
def test_a_changed_lock_file_or_missing_provider_is_initialised(counted: Counted) -> None:
    lock = counted.root / ".terraform.lock.hcl"
    counted.edit(lock, 'constraints = "5.100.0"', 'constraints = "~> 5.100"')
    assert counted.init_runs()
    assert not counted.init_runs()
    lock.unlink()
    assert counted.init_runs()
    assert lock.is_file()
    assert not counted.init_runs()
    shutil.rmtree(counted.data / "providers")
    assert counted.init_runs()
    assert not counted.init_runs()


@pytest.mark.terraform
def test_other_settings_or_arguments_are_initialised(counted: Counted) -> None:
    counted.tf.extra_env["TF_WORKSPACE"] = "default"
    assert counted.init_runs()
    assert not counted.init_runs()
    assert counted.tf.init(upgrade=True).argv[1:2] == ("init",)
    assert counted.inits() == 3
    (counted.data / STAMP).write_text("{}", "utf-8")
    assert counted.init_runs()
    assert (counted.data / STAMP).is_file()
