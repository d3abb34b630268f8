"""Converge behind a front door: a source it takes down leaves the front door (weight 0) first.

chat serves 1 replica on GKE (``inference-us``) with a cold standby on EKS (``inference-use1``),
each behind an external load balancer, with a Route 53 front door (moto, through the logging
forwarder). GKE's cloud goes down; ``failover --target-only`` brings EKS up (its weight rises)
and leaves GKE serving at weight 100. Once GKE is back, ``converge`` replaces GKE's Deployment
at 0: its record must be at weight 0 before that, or Route 53 would keep sending clients to a
placement with no replica for as long as its health check takes to fail.

What an emulator cannot show: as in test_failover_front_door (the stand-in in record mode, the
load balancers' addresses written into the states, moto never probing).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_failover_converge import left_by_the_outage
from tests.app.test_failover_front_door import behind_the_front_door, weights
from tests.app.test_failover_run import (
    EKS,
    GKE,
    gpuplat,
    moto,
    serving_states,
    stand_ins,
)
from tests.support.moto import MotoServer
from tests.support.standin import recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]


@pytest.fixture
def behind_a_door(
    moto: MotoServer,
    stand_ins: Path,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, dict[str, str], str]]:
    """The --target-only move left GKE serving behind the front door, GKE back up.

    Starts from this test's own copy of the applied front door (made once per session).
    """
    with behind_the_front_door(moto, stand_ins, tmp_path_factory, tmp_path) as built:
        project, env, zone_id, _ = built
        for moved, moved_env in left_by_the_outage(project, env, moto, 1):
            yield moved, moved_env, zone_id


def test_converge_lowers_the_source_weight_before_it_replaces_its_deployment(
    behind_a_door: tuple[Path, dict[str, str], str], moto: MotoServer, tmp_path: Path
) -> None:
    project, env, zone = behind_a_door
    # The --target-only move raised EKS; GKE, unreachable then, kept its weight.
    assert weights(moto, zone) == {f"chat@{GKE}": 100, f"chat@{EKS}": 100}
    log = tmp_path / "applies.jsonl"
    log.unlink()
    done = gpuplat("converge", "chat", "-e", "dev", "--yes", env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    steps = []
    for a in recorded_applies(log):
        if a["type"] == "kubernetes_deployment_v1":
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            steps.append(("deployment", a["action"], replicas))
        elif a["type"] == "aws_route53_record" and a.get("set_identifier"):
            steps.append((str(a["set_identifier"]), "weight", a["weight"]))
    lowered = steps.index((f"chat@{GKE}", "weight", 0))
    # A replace is a delete and a create: the old Deployment goes only after the weight.
    assert lowered < steps.index(("deployment", "delete", 1)), steps
    assert steps.index(("deployment", "create", 0)) > lowered, steps
    assert not [s for s in steps if s[0] == f"chat@{EKS}"], steps
    assert weights(moto, zone) == {f"chat@{GKE}": 0, f"chat@{EKS}": 100}
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 0}}
    log.unlink()
    again = gpuplat("converge", "chat", "-e", "dev", "--yes", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert recorded_applies(log) == []
