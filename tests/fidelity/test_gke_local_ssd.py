"""GKE pools hold their ephemeral storage on local SSDs when the spec says so.

gke-h100-mig's a3-highgpu-8g pools put the 16 replicas' Cloud Storage FUSE file caches on the
16 local NVMe SSDs the machine comes with (``disk.local_ssd_count: 16``), through the google
provider's ``node_config.ephemeral_storage_local_ssd_config`` (node_config.go: ``local_ssd_count``
required, at least 0, ForceNew). The google stand-in plans the rendered root with the real
Terraform and the provider's schema and rules; what it cannot show is GKE striping the SSDs and
moving the kubelet's and containerd's directories onto them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.fidelity.test_offline_plan import _plan
from tests.support.golden import GOLDEN

pytestmark = pytest.mark.terraform

POOLS = (
    "module.pool_mig-central_h100-mig.google_container_node_pool.this",
    "module.pool_mig-central_h100-mig-spot.google_container_node_pool.this",
)


def test_mig_pools_cache_on_their_local_ssds(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    shutil.copytree(GOLDEN / "gke-h100-mig", folder, ignore=shutil.ignore_patterns(".terraform*"))
    planned = _plan(folder / "envs" / "prod" / "mig-central" / "infra")
    for address in POOLS:
        (config,) = planned[address]["node_config"]  # type: ignore[misc]
        (local,) = config["ephemeral_storage_local_ssd_config"]
        assert local["local_ssd_count"] == 16
        # The boot disk keeps the OS only; the caches' room is on the SSDs.
        assert (config["disk_size_gb"], config["disk_type"]) == (200, "pd-balanced")
