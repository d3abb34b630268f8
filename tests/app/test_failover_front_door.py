"""The front door a failover moves: Route 53 weighted records with health checks, on moto.

chat serves 1 replica on GKE (``inference-us``) with a cold standby on EKS (``inference-use1``),
each behind an external load balancer (``address: {scheme: external}``), and a front door of
weighted records in a Route 53 zone (``front_door``). The records are applied by the real aws
provider against moto's Route 53 (through a forwarder that logs each record change into the
same log as the stand-ins' applies, tests/support/route53log.py); the model servers by the
kubernetes stand-in in record mode. EKS's serving state lives in moto's S3, GKE's on disk.

What an emulator cannot show: no load balancer is made and no pod runs. The address a cloud
gives each LoadBalancer Service is written into the serving states here (the stand-in's
placeholder is empty), as a cloud's service controller would write the Service's status;
moto accepts the health checks and never probes anything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

from tests.app.test_failover_run import (
    BUCKET,
    EKS,
    GKE,
    environment,
    gpuplat,
    moto,
    seed_infra_outputs,
    serving_states,
    stand_ins,
    two_clouds,
)
from tests.support.moto import MotoServer
from tests.support.route53log import route53_log
from tests.support.snapshot import LOG, PROJECT, Build, from_snapshot
from tests.support.standin import record_env, recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]

EKS_KEY = f"acme-inference/dev/{EKS}/serving/terraform.tfstate"
ADDRESSES = {GKE: {"ip": "34.118.0.10"}, EKS: {"hostname": "chat-1a2b.elb.us-east-1.amazonaws.com"}}


def with_status(state: dict[str, object], ingress: dict[str, str]) -> dict[str, object]:
    """The state with the model server's Service given its load balancer's address."""
    for resource in state["resources"]:  # type: ignore[attr-defined]
        if resource["type"] == "kubernetes_service_v1" and resource["module"].startswith(
            "module.serve_"
        ):
            for instance in resource["instances"]:
                entry = {"hostname": "", "ip": "", **ingress}
                instance["attributes"]["status"] = [{"load_balancer": [{"ingress": [entry]}]}]
    state["serial"] = int(state["serial"]) + 1  # type: ignore[call-overload]
    return state


def load_balancers_given(project: Path, moto: MotoServer) -> None:
    """What each cloud's service controller does: the Services' status gets an address."""
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    gke = json.loads(local.read_text(encoding="utf-8"))
    local.write_text(json.dumps(with_status(gke, ADDRESSES[GKE])), encoding="utf-8")
    s3 = moto.client("s3")
    eks = json.loads(s3.get_object(Bucket=BUCKET, Key=EKS_KEY)["Body"].read())
    body = json.dumps(with_status(eks, ADDRESSES[EKS])).encode()
    s3.put_object(Bucket=BUCKET, Key=EKS_KEY, Body=body)


def edit_spec(project: Path, **chat: object) -> None:
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    spec["workloads"][0].update(chat)
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")


def weights(moto: MotoServer, zone: str) -> dict[str, int]:
    """Set identifier -> weight of the front door's weighted records in moto's Route 53."""
    sets = moto.client("route53").list_resource_record_sets(HostedZoneId=zone)
    return {
        r["SetIdentifier"]: int(r["Weight"])
        for r in sets["ResourceRecordSets"]
        if r["Name"].rstrip(".") == "chat.example.com" and "SetIdentifier" in r
    }


def placements(project: Path, moto: MotoServer) -> dict[str, object]:
    """The ``placements`` outputs of both serving states."""
    eks = json.loads(moto.client("s3").get_object(Bucket=BUCKET, Key=EKS_KEY)["Body"].read())
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    gke = json.loads(local.read_text(encoding="utf-8"))
    out: dict[str, object] = {}
    for state in (eks, gke):
        for name, value in state["outputs"]["placements"]["value"].items():
            out[name] = {k: v for k, v in value.items() if k != "endpoint"}
    return out


def front_door_build(moto: MotoServer, stand_ins: Path) -> Build:
    """chat applied on both clouds behind its load balancers, then its front door applied.

    Two plans and applies through the real aws provider and the stand-ins; made once per
    session (tests/support/snapshot.py) for every test that starts from it.
    """

    def build(folder: Path) -> dict[str, str]:
        moto.create_bucket(BUCKET)
        log = folder / LOG
        project = two_clouds(folder / PROJECT, moto.endpoint, gke_backend={"type": "local"})
        edit_spec(project, address={"scheme": "external"})
        env = environment(folder, stand_ins, **record_env(log))
        assert gpuplat("render", env=env, cwd=project).returncode == 0
        for cluster in (EKS, GKE):
            seed_infra_outputs(project, cluster, env, folder)
        assert gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project).returncode == 10
        done = gpuplat("apply", "dev", env=env, cwd=project)
        assert done.returncode == 0, done.stdout + done.stderr
        load_balancers_given(project, moto)

        route53 = moto.client("route53")
        zone = route53.create_hosted_zone(Name="example.com", CallerReference="gpuplat")
        zone_id = zone["HostedZone"]["Id"].split("/")[-1]
        with route53_log(moto.endpoint, log) as endpoint:
            door = {"dns": "route53", "zone_id": zone_id, "name": "chat.example.com"}
            edit_spec(project, front_door={**door, "endpoint": endpoint})
            planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
            assert planned.returncode == 10, planned.stdout + planned.stderr
            done = gpuplat("apply", "dev", env=env, cwd=project)
            assert done.returncode == 0, done.stdout + done.stderr
        return {"zone_id": zone_id}

    return build


@contextmanager
def behind_the_front_door(
    moto: MotoServer, stand_ins: Path, factory: pytest.TempPathFactory, folder: Path
) -> Iterator[tuple[Path, dict[str, str], str, Path]]:
    """This test's own copy of the applied front door (project, apply log, moto's state),
    its Route 53 calls going through a logging forwarder of its own."""
    build = front_door_build(moto, stand_ins)
    facts = from_snapshot("front-door", build, moto=moto, factory=factory, into=folder)
    project, log = folder / PROJECT, folder / LOG
    env = environment(folder, stand_ins, **record_env(log))
    with route53_log(moto.endpoint, log) as endpoint:
        spec = yaml.safe_load((project / "gpuplat.yaml").read_text(encoding="utf-8"))
        edit_spec(project, front_door={**spec["workloads"][0]["front_door"], "endpoint": endpoint})
        rendered = gpuplat("render", env=env, cwd=project)
        assert rendered.returncode == 0, rendered.stdout + rendered.stderr
        yield project, env, facts["zone_id"], log


@pytest.fixture(scope="module")
def front_door(
    moto: MotoServer, stand_ins: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, dict[str, str], str, Path]]:
    """chat applied on both clouds behind its load balancers and its front door.

    One copy for the module: the first test only reads it, the failover test that moves chat
    runs after it.
    """
    folder = tmp_path_factory.mktemp("front-door")
    with behind_the_front_door(moto, stand_ins, tmp_path_factory, folder) as built:
        yield built


def test_each_placement_has_an_address_and_a_weighted_record_by_its_role(
    front_door: tuple[Path, dict[str, str], str, Path], moto: MotoServer
) -> None:
    project, _, zone, _ = front_door
    assert placements(project, moto) == {
        f"chat@{GKE}": {"role": "active", "serving": True, "address": ADDRESSES[GKE]["ip"]},
        f"chat@{EKS}": {"role": "cold", "serving": False, "address": ADDRESSES[EKS]["hostname"]},
    }
    assert weights(moto, zone) == {f"chat@{GKE}": 100, f"chat@{EKS}": 0}
    sets = moto.client("route53").list_resource_record_sets(HostedZoneId=zone)
    own = {
        r["Name"].rstrip("."): (r["Type"], [v["Value"] for v in r["ResourceRecords"]])
        for r in sets["ResourceRecordSets"]
        if "SetIdentifier" not in r and r["Name"].startswith("inference")
    }
    # An IP (GKE) is an A record, a host name (EKS) a CNAME; the weighted group is CNAMEs.
    assert own == {
        f"{GKE}.chat.example.com": ("A", [ADDRESSES[GKE]["ip"]]),
        f"{EKS}.chat.example.com": ("CNAME", [ADDRESSES[EKS]["hostname"]]),
    }
    checks = moto.client("route53").list_health_checks()["HealthChecks"]
    probed = {
        (c["HealthCheckConfig"]["FullyQualifiedDomainName"], c["HealthCheckConfig"]["ResourcePath"])
        for c in checks
    }
    assert probed == {(f"{c}.chat.example.com", "/health") for c in (GKE, EKS)}


def test_failover_raises_the_target_weight_after_its_rollout_and_lowers_the_source_first(
    front_door: tuple[Path, dict[str, str], str, Path], moto: MotoServer
) -> None:
    project, env, zone, log = front_door
    log.unlink()
    # Four plans and three applies (the source's twice), each record change waiting for
    # Route 53 to report it in sync: give it longer than one command's usual 10 minutes.
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
    steps = []
    for a in recorded_applies(log):
        if a["type"] == "kubernetes_deployment_v1":
            side = "eks" if a["cwd"] == eks_root else "gke"
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            steps.append((side, a["action"], replicas))
        elif a["type"] == "aws_route53_record" and a["set_identifier"]:
            steps.append((str(a["set_identifier"]), a["action"], a["weight"]))
    eks_up = steps.index(("eks", "create", 1))
    eks_weight = next(i for i, s in enumerate(steps) if s[0] == f"chat@{EKS}" and s[2] == 100)
    gke_weight = next(i for i, s in enumerate(steps) if s[0] == f"chat@{GKE}" and s[2] == 0)
    gke_down = steps.index(("gke", "create", 0))
    # EKS serves (terraform waited for its rollout) before its weight rises; GKE's weight is
    # 0 before its Deployment goes to 0. Never a moment with no weighted, serving placement.
    assert eks_up < eks_weight < gke_weight < gke_down, steps
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 0}}
    assert weights(moto, zone) == {f"chat@{GKE}": 0, f"chat@{EKS}": 100}
    assert placements(project, moto) == {
        f"chat@{GKE}": {"role": "cold", "serving": False, "address": ADDRESSES[GKE]["ip"]},
        f"chat@{EKS}": {"role": "active", "serving": True, "address": ADDRESSES[EKS]["hostname"]},
    }
    again = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
