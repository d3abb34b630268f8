"""The issue's shape behind an Azure Traffic Manager front door: scale-to-zero on GKE and EKS,
one external endpoint per placement, and a failover that enables the target's endpoint after
its rollout and disables the source's before it goes down.

As in test_failover_zero_door.py (whose set-up this reuses): chat serves on GKE with a cold
standby on EKS, KEDA 0..4 on both, each placement's address the load balancer in front of its
KEDA interceptor. The endpoints and the profile (GKE's root, the workload's first cluster, makes
it) are applied by the azurerm stand-in in record mode, the Kubernetes objects by the stand-in,
EKS's serving state in moto's S3. What no stand-in shows: Traffic Manager probing anything, a
load balancer, a pod.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_failover_keda import (
    fresh_bucket,
    keda_project,
    min_replica_count,
    scaled_by_keda,
)
from tests.app.test_failover_run import (
    EKS,
    GKE,
    environment,
    gpuplat,
    moto,
    seed_infra_outputs,
    stand_ins,
)
from tests.app.test_failover_zero_door import (
    ADDRESSES,
    _edit_spec,
    _load_balancers_given,
    _placements,
)
from tests.support.moto import MotoServer
from tests.support.standin import record_env, recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]

DOOR = {
    "dns": "traffic_manager",
    "name": "chat.example.com",
    "traffic_manager": {
        "subscription_id": "00000000-0000-0000-0000-000000000000",
        "resource_group": "front",
    },
}
ENDPOINT = "azurerm_traffic_manager_external_endpoint"


@pytest.fixture
def tm_door(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> Iterator[tuple[Path, dict[str, str], Path]]:
    """chat at 0..4 on both clouds behind the interceptors' load balancers and Traffic Manager."""
    fresh_bucket(moto)
    log = tmp_path / "applies.jsonl"
    project = keda_project(tmp_path / "p", moto.endpoint)
    _edit_spec(project, address={"scheme": "external"})
    env = environment(tmp_path, stand_ins, **record_env(log))
    assert gpuplat("render", env=env, cwd=project).returncode == 0
    for cluster in (EKS, GKE):
        seed_infra_outputs(project, cluster, env, tmp_path)
    assert gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project).returncode == 10
    done = gpuplat("apply", "dev", env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    _load_balancers_given(project, moto)
    _edit_spec(project, front_door=DOOR)
    log.unlink()
    planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert planned.returncode == 10, planned.stdout + planned.stderr
    done = gpuplat("apply", "dev", env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    yield project, env, log


def _endpoints(log: Path) -> list[tuple[str, str, bool, int, str]]:
    return [
        (str(a["action"]), s["name"], s["enabled"], s["weight"], s["target"])  # type: ignore[index]
        for a in recorded_applies(log)
        if a["type"] == ENDPOINT and (s := a["state"]) is not None
    ]


def test_a_failover_enables_the_target_endpoint_before_disabling_the_source(
    tm_door: tuple[Path, dict[str, str], Path], moto: MotoServer
) -> None:
    project, env, log = tm_door
    # One profile (GKE's root: the first cluster), probing TCP on the interceptor's port.
    profiles = [a for a in recorded_applies(log) if a["type"] == "azurerm_traffic_manager_profile"]
    assert [p["cwd"] for p in profiles] == [str(project / "envs" / "dev" / GKE / "serving")]
    monitor = profiles[0]["state"]["monitor_config"][0]  # type: ignore[index]
    assert (monitor["protocol"], monitor["port"], monitor["path"]) == ("TCP", 8080, None)
    # The standby's endpoint exists at zero replicas (its interceptor's address), disabled.
    assert sorted(_endpoints(log)) == [
        ("create", f"chat-{GKE}", True, 100, ADDRESSES[GKE]["ip"]),
        ("create", f"chat-{EKS}", False, 1, ADDRESSES[EKS]["hostname"]),
    ]

    scaled_by_keda(project, 3)
    log.unlink()
    moved = subprocess.run(
        [sys.executable, "-m", "gpuplat", "failover", "chat", "--to", EKS, "-e", "dev", "--yes"],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=1800,
        check=False,
    )
    assert moved.returncode == 0, moved.stdout + moved.stderr
    eks_root = str(project / "envs" / "dev" / EKS / "serving")
    steps: list[tuple[str, str, object]] = []
    for a in recorded_applies(log):
        side = "eks" if a.get("cwd") == eks_root else "gke"
        state = a.get("state")
        if a["type"] == "kubernetes_deployment_v1":
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            steps.append((side, f"deployment-{a['action']}", replicas))
        elif a["type"] == ENDPOINT and isinstance(state, dict):
            steps.append((side, "endpoint", (state["enabled"], state["weight"])))
        elif (count := min_replica_count(state)) is not None:
            steps.append((side, "keda-min", count))
    eks_up = steps.index(("eks", "deployment-create", 3))
    eks_on = steps.index(("eks", "endpoint", (True, 100)))
    gke_off = steps.index(("gke", "endpoint", (False, 1)))
    back = steps.index(("eks", "keda-min", 0))
    assert eks_up < eks_on < gke_off < back, steps
    assert _placements(project, moto) == {
        f"chat@{GKE}": {"role": "cold", "serving": False, "address": ADDRESSES[GKE]["ip"]},
        f"chat@{EKS}": {"role": "active", "serving": True, "address": ADDRESSES[EKS]["hostname"]},
    }
    again = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
