"""The moto fixture, and real S3-lockfile locking between two concurrent applies on moto."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gpuplat.errors import TerraformError
from gpuplat.terraform import (
    ApplyStart,
    Event,
    StateLockedError,
    Terraform,
    find_binary,
)
from tests.support.moto import (
    AWS_PROVIDER,
    MotoServer,
    aws_env,
    aws_provider_block,
    moto_server,
    s3_backend_settings,
    write_backend_config,
    write_cli_config,
)
from tests.support.realparts import aws_provider_mirror, terraform_bin

ROOT = """\
terraform {
  backend "s3" {}
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}

resource "aws_s3_bucket" "artifacts" {
  bucket = "artifacts"
}

resource "terraform_data" "slow" {
  depends_on = [aws_s3_bucket.artifacts]
  provisioner "local-exec" {
    command = "sleep 4"
  }
}
"""


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with moto_server() as server:
        yield server


def test_cli_config_uses_the_filesystem_mirror(tmp_path: Path) -> None:
    mirror = aws_provider_mirror()
    text = write_cli_config(tmp_path / "rc").read_text(encoding="utf-8")
    assert text == (
        "disable_checkpoint = true\n\nprovider_installation {\n  filesystem_mirror {\n"
        f'    path    = "{mirror}"\n    include = ["{AWS_PROVIDER}"]\n  }}\n'
        f'  direct {{\n    exclude = ["{AWS_PROVIDER}"]\n  }}\n}}\n'
    )


def test_backend_settings_and_file() -> None:
    settings = s3_backend_settings("http://127.0.0.1:1234", bucket="b", key="dev/infra.tfstate")
    assert settings["use_lockfile"] is True
    assert settings["endpoints"] == {"s3": "http://127.0.0.1:1234"}
    assert settings["region"] == "us-east-1"
    assert aws_env()["AWS_ACCESS_KEY_ID"] == aws_env()["AWS_SECRET_ACCESS_KEY"] == "testing"


def test_backend_file_is_hcl(tmp_path: Path) -> None:
    settings = s3_backend_settings("http://h:1", bucket="b", key="k")
    text = write_backend_config(tmp_path / "b.hcl", settings).read_text(encoding="utf-8")
    assert text.splitlines()[:6] == [
        'bucket = "b"',
        'key = "k"',
        'region = "us-east-1"',
        "use_lockfile = true",
        'endpoints = { s3 = "http://h:1" }',
        "use_path_style = true",
    ]


@pytest.mark.integration
def test_moto_server_serves_s3(moto: MotoServer) -> None:
    assert moto.endpoint.startswith("http://127.0.0.1:")
    moto.create_bucket("fixture-check")
    s3 = moto.client("s3")
    s3.put_object(Bucket="fixture-check", Key="a.txt", Body=b"hi")
    assert s3.get_object(Bucket="fixture-check", Key="a.txt")["Body"].read() == b"hi"
    assert "fixture-check" in {b["Name"] for b in s3.list_buckets()["Buckets"]}


@pytest.mark.integration
def test_concurrent_applies_on_one_s3_state(moto: MotoServer, tmp_path: Path) -> None:
    bucket = moto.create_bucket("state-lock-test")
    key = "dev/infra.tfstate"
    root = tmp_path / "root"
    root.mkdir()
    (root / "main.tf").write_text(
        ROOT + "\n" + aws_provider_block(moto.endpoint, ("s3",)), encoding="utf-8"
    )
    settings = s3_backend_settings(moto.endpoint, bucket=bucket, key=key)
    tf = Terraform(
        find_binary(terraform_bin()),
        root,
        data_dir=tmp_path / "data",
        plugin_cache_dir=tmp_path / "plugin-cache",
        cli_config_file=write_cli_config(tmp_path / "terraformrc"),
        env=aws_env(),
    )
    tf.init(backend_config_files=[write_backend_config(tmp_path / "backend.hcl", settings)])
    plan = tmp_path / "one.plan"
    assert tf.plan(plan).has_changes

    sleeping = threading.Event()

    def on_event(event: Event) -> None:
        # terraform_data.slow starts only after the lock is taken and the bucket exists.
        if isinstance(event, ApplyStart) and event.resource.addr == "terraform_data.slow":
            sleeping.set()

    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(tf.apply, plan, on_event=on_event)
        assert sleeping.wait(timeout=60), "the first apply never started its slow resource"
        with pytest.raises(StateLockedError) as caught:
            tf.apply(plan)
        # The lock object the first apply wrote to S3 names the same lock the error reports.
        lock_object = moto.client("s3").get_object(Bucket=bucket, Key=f"{key}.tflock")
        held = json.loads(lock_object["Body"].read())
        result = first.result(timeout=60)

    error = caught.value
    assert error.lock is not None
    assert error.lock.id == held["ID"]
    assert error.lock.path == f"{bucket}/{key}"
    assert error.lock.operation == "OperationTypeApply"
    assert error.hint is not None
    assert error.hint.endswith(tf.unlock_command(error.lock.id))
    assert "force-unlock -force " + error.lock.id in error.hint
    assert any("PreconditionFailed" in detail for detail in error.details)

    assert result.summary is not None and result.summary.add == 2
    s3 = moto.client("s3")
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", [])}
    assert keys == {key}, "the lock file is released after the apply"
    assert "artifacts" in {b["Name"] for b in s3.list_buckets()["Buckets"]}
    assert tf.state_list() == ["aws_s3_bucket.artifacts", "terraform_data.slow"]


@pytest.mark.integration
def test_force_unlock_releases_a_lock_whose_holder_is_gone(
    moto: MotoServer, tmp_path: Path
) -> None:
    bucket = moto.create_bucket("state-ghost-lock")
    key = "dev/serving.tfstate"
    root = tmp_path / "root"
    root.mkdir()
    (root / "main.tf").write_text(
        'terraform {\n  backend "s3" {}\n}\n\nresource "terraform_data" "x" {}\n',
        encoding="utf-8",
    )
    settings = s3_backend_settings(moto.endpoint, bucket=bucket, key=key)
    tf = Terraform(
        find_binary(terraform_bin()),
        root,
        data_dir=tmp_path / "data",
        cli_config_file=write_cli_config(tmp_path / "terraformrc"),
        env=aws_env(),
    )
    tf.init(backend_config_files=[write_backend_config(tmp_path / "backend.hcl", settings)])
    # What a CI runner killed mid-apply leaves behind: the lock object, and nobody to delete it.
    ghost = {
        "ID": "6f1c2a52-0000-4000-8000-000000000001",
        "Operation": "OperationTypeApply",
        "Info": "",
        "Who": "ci@crashed-runner",
        "Version": "1.11.4",
        "Created": "2026-01-01T00:00:00Z",
        "Path": f"{bucket}/{key}",
    }
    moto.client("s3").put_object(Bucket=bucket, Key=f"{key}.tflock", Body=json.dumps(ghost))

    with pytest.raises(StateLockedError) as caught:
        tf.plan()
    lock = caught.value.lock
    assert lock is not None
    assert (lock.id, lock.who, lock.path) == (ghost["ID"], "ci@crashed-runner", ghost["Path"])

    with pytest.raises(TerraformError) as wrong:
        tf.force_unlock("00000000-0000-4000-8000-000000000000")
    assert wrong.value.returncode == 1
    assert wrong.value.details, "terraform's refusal is kept"

    tf.force_unlock(lock.id)
    assert tf.plan().has_changes
