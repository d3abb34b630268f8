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
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.app.test_failover_converge import leave_serving
from tests.app.test_failover_front_door import edit_spec, load_balancers_given, weights
from tests.app.test_failover_keda import fresh_bucket
from tests.app.test_failover_run import (
    EKS,
    GKE,
    gpuplat,
    moto,
    serving_states,
    stand_ins,
    two_clouds,
)
from tests.support.moto import MotoServer
from tests.support.route53log import route53_log
from tests.support.standin import recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]


@pytest.fixture
def behind_a_door(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> Iterator[tuple[Path, dict[str, str], str]]:
    """The --target-only move left GKE serving behind the front door, GKE back up."""
    fresh_bucket(moto)
    project = two_clouds(tmp_path / "p", moto.endpoint, gke_backend={"type": "local"})
    edit_spec(project, address={"scheme": "external"})
    zone = moto.client("route53").create_hosted_zone(Name="example.com", CallerReference="cv")
    zone_id = zone["HostedZone"]["Id"].split("/")[-1]
    with ExitStack() as stack:

        def add_door(project: Path, env: dict[str, str]) -> None:
            load_balancers_given(project, moto)
            endpoint = stack.enter_context(route53_log(moto.endpoint, tmp_path / "applies.jsonl"))
            door = {"dns": "route53", "zone_id": zone_id, "name": "chat.example.com"}
            edit_spec(project, front_door={**door, "endpoint": endpoint})
            planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
            assert planned.returncode == 10, planned.stdout + planned.stderr
            done = gpuplat("apply", "dev", env=env, cwd=project)
            assert done.returncode == 0, done.stdout + done.stderr

        for moved, env in leave_serving(project, moto, stand_ins, tmp_path, 1, add_door):
            yield moved, env, zone_id


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
