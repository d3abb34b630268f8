"""`gpuplat migrate`: state of the one-root-per-stage layout moves into per-cluster roots.

The old layout's state is made exactly as gpuplat 0.1 left it: the infra state applied by the
real terraform, sitting at ``<prefix>/<stage>/terraform.tfstate`` in moto's S3. Module addresses
are the same in both layouts, which is what makes the move a pure state operation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app.test_lifecycle import (
    BUCKET,
    CLUSTER,
    environment,
    gpuplat,
    make_project,
    moto,
    moto_server_of_module,
)
from tests.support.moto import MotoServer

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "moto_server_of_module"]  # the fixtures, used by name

OLD_KEY = "acme-inference/dev/infra/terraform.tfstate"
NEW_KEY = f"acme-inference/dev/{CLUSTER}/infra/terraform.tfstate"


def test_old_layout_state_moves_into_the_cluster_root(moto: MotoServer, tmp_path: Path) -> None:
    env = environment(tmp_path)
    project = make_project(tmp_path / "p", moto.endpoint)
    assert gpuplat("plan", "dev", "--stage", "infra", env=env, cwd=project).returncode == 10
    assert gpuplat("apply", "dev", env=env, cwd=project).returncode == 0
    listed = gpuplat("output", "dev", "--stage", "infra", env=env, cwd=project)
    assert listed.returncode == 0, listed.stderr
    s3 = moto.client("s3")
    # What gpuplat 0.1 left behind: the same state, at the environment-and-stage key.
    s3.copy_object(Bucket=BUCKET, Key=OLD_KEY, CopySource={"Bucket": BUCKET, "Key": NEW_KEY})
    s3.delete_object(Bucket=BUCKET, Key=NEW_KEY)
    old_body = s3.get_object(Bucket=BUCKET, Key=OLD_KEY)["Body"].read()

    moved = gpuplat("migrate", "dev", env=env, cwd=project)
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.splitlines() == [
        f"dev/infra: moved 3 module(s) to {CLUSTER}",
        "dev/platform: no old state (s3 acme-inference/dev/platform/terraform.tfstate)",
        "dev/serving: no old state (s3 acme-inference/dev/serving/terraform.tfstate)",
    ]
    assert "the old state of dev/infra is untouched at s3 " + OLD_KEY in moved.stderr
    assert s3.get_object(Bucket=BUCKET, Key=OLD_KEY)["Body"].read() == old_body
    assert s3.get_object(Bucket=BUCKET, Key=NEW_KEY)["ContentLength"] > 0

    # Every resource is where the new root expects it: the outputs read back, and a plan
    # creates nothing (moto's read-back artifacts still show replacements; see test_lifecycle).
    again = gpuplat("output", "dev", "--stage", "infra", env=env, cwd=project)
    assert again.stdout == listed.stdout
    planned = gpuplat("plan", "dev", "--stage", "infra", "--json", env=env, cwd=project)
    assert planned.returncode in (0, 10), planned.stderr
    (result,) = json.loads(planned.stdout)
    assert [s["counts"].get("create", 0) for s in result["stages"]] == [0]

    twice = gpuplat("migrate", "dev", env=env, cwd=project)
    assert twice.returncode == 0, twice.stderr
    assert f"dev/infra: {CLUSTER} skipped: its new state already holds resources" in twice.stdout
