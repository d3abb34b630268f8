"""The issue's own shape behind a front door: scale-to-zero on both clouds, a Route 53 record per
placement, and a failover that moves the weights in the safe order.

chat serves on GKE (``inference-us``) with a cold standby on EKS (``inference-use1``), KEDA
holding 0..4 on both. Each placement's address is a load balancer in front of the KEDA HTTP
interceptor (scale-to-zero ``http.door``), so the EKS standby has an address while it runs no
replica; its weighted record stays at 0 until its replicas serve. The records are applied by the
real aws provider against moto's Route 53 (through the forwarder that logs each change into
the stand-ins' apply log); the Kubernetes objects by the stand-in in record mode; EKS's serving
state lives in moto's S3, GKE's on disk.

What an emulator cannot show: no load balancer is made, no pod runs and KEDA never acts. The
addresses the clouds would give the interceptors' load balancers are written into the serving
states, and KEDA's count on GKE under load (3) is written as its refresh would read it; moto
accepts the TCP health checks and never probes anything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.app.test_failover_keda import (
    fresh_bucket,
    keda_project,
    min_replica_count,
    scaled_by_keda,
)
from tests.app.test_failover_run import (
    BUCKET,
    EKS,
    GKE,
    environment,
    gpuplat,
    moto,
    seed_infra_outputs,
    stand_ins,
)
from tests.support.moto import MotoServer
from tests.support.route53log import route53_log
from tests.support.standin import record_env, recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]

EKS_KEY = f"acme-inference/dev/{EKS}/serving/terraform.tfstate"
ADDRESSES = {GKE: {"ip": "34.118.0.20"}, EKS: {"hostname": "chat-door.elb.us-east-1.amazonaws.com"}}
NAME = "chat.example.com"


def _with_door_status(state: dict[str, object], ingress: dict[str, str]) -> dict[str, object]:
    """The state with the interceptor's load balancer Service given an address."""
    for resource in state["resources"]:  # type: ignore[attr-defined]
        if resource["type"] == "kubernetes_service_v1" and resource["name"] == "door":
            for instance in resource["instances"]:
                entry = {"hostname": "", "ip": "", **ingress}
                instance["attributes"]["status"] = [{"load_balancer": [{"ingress": [entry]}]}]
    state["serial"] = int(state["serial"]) + 1  # type: ignore[call-overload]
    return state


def _load_balancers_given(project: Path, moto: MotoServer) -> None:
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    gke = json.loads(local.read_text(encoding="utf-8"))
    local.write_text(json.dumps(_with_door_status(gke, ADDRESSES[GKE])), encoding="utf-8")
    s3 = moto.client("s3")
    eks = json.loads(s3.get_object(Bucket=BUCKET, Key=EKS_KEY)["Body"].read())
    body = json.dumps(_with_door_status(eks, ADDRESSES[EKS])).encode()
    s3.put_object(Bucket=BUCKET, Key=EKS_KEY, Body=body)


def _edit_spec(project: Path, **chat: object) -> None:
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    spec["workloads"][0].update(chat)
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")


def _weights(moto: MotoServer, zone: str) -> dict[str, int]:
    sets = moto.client("route53").list_resource_record_sets(HostedZoneId=zone)
    return {
        r["SetIdentifier"]: int(r["Weight"])
        for r in sets["ResourceRecordSets"]
        if r["Name"].rstrip(".") == NAME and "SetIdentifier" in r
    }


def _placements(project: Path, moto: MotoServer) -> dict[str, object]:
    eks = json.loads(moto.client("s3").get_object(Bucket=BUCKET, Key=EKS_KEY)["Body"].read())
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    gke = json.loads(local.read_text(encoding="utf-8"))
    out: dict[str, object] = {}
    for state in (eks, gke):
        for name, value in state["outputs"]["placements"]["value"].items():
            out[name] = {k: v for k, v in value.items() if k != "endpoint"}
    return out


@pytest.fixture
def zero_door(
    moto: MotoServer, stand_ins: Path, tmp_path: Path
) -> Iterator[tuple[Path, dict[str, str], str, Path]]:
    """chat at 0..4 on both clouds behind the interceptors' load balancers and a front door."""
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
    zone = moto.client("route53").create_hosted_zone(Name="example.com", CallerReference="zero")
    zone_id = zone["HostedZone"]["Id"].split("/")[-1]
    with route53_log(moto.endpoint, log) as endpoint:
        door = {"dns": "route53", "zone_id": zone_id, "name": NAME, "endpoint": endpoint}
        _edit_spec(project, front_door=door)
        planned = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
        assert planned.returncode == 10, planned.stdout + planned.stderr
        done = gpuplat("apply", "dev", env=env, cwd=project)
        assert done.returncode == 0, done.stdout + done.stderr
        yield project, env, zone_id, log


def test_a_failover_to_a_scale_to_zero_target_raises_its_weight_before_the_source_leaves(
    zero_door: tuple[Path, dict[str, str], str, Path], moto: MotoServer
) -> None:
    project, env, zone, log = zero_door
    # The standby has an address at zero replicas (its interceptor's), and a weight of 0.
    assert _placements(project, moto) == {
        f"chat@{GKE}": {"role": "active", "serving": True, "address": ADDRESSES[GKE]["ip"]},
        f"chat@{EKS}": {"role": "cold", "serving": False, "address": ADDRESSES[EKS]["hostname"]},
    }
    assert _weights(moto, zone) == {f"chat@{GKE}": 100, f"chat@{EKS}": 0}
    checks = moto.client("route53").list_health_checks()["HealthChecks"]
    probed = {
        (c["HealthCheckConfig"]["FullyQualifiedDomainName"], c["HealthCheckConfig"]["Type"])
        for c in checks
    }
    # TCP: an HTTP probe through the interceptor would be held and start a GPU replica.
    assert probed == {(f"{c}.{NAME}", "TCP") for c in (GKE, EKS)}
    assert {c["HealthCheckConfig"]["Port"] for c in checks} == {8080}

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
        if a["type"] == "kubernetes_deployment_v1":
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            steps.append((side, f"deployment-{a['action']}", replicas))
        elif a["type"] == "aws_route53_record" and a.get("set_identifier"):
            steps.append((str(a["set_identifier"]), "weight", a["weight"]))
        elif (count := min_replica_count(a.get("state"))) is not None:
            steps.append((side, "keda-min", count))
    eks_up = steps.index(("eks", "deployment-create", 3))
    eks_weight = steps.index((f"chat@{EKS}", "weight", 100))
    gke_weight = steps.index((f"chat@{GKE}", "weight", 0))
    back = steps.index(("eks", "keda-min", 0))
    # EKS runs GKE's 3 replicas (terraform waited for the rollout) before its weight rises;
    # GKE leaves the front door after that; only then is EKS's count handed back to KEDA.
    # GKE's replicas are KEDA's to take to 0 once no request reaches its interceptor.
    assert eks_up < eks_weight < gke_weight < back, steps
    assert _weights(moto, zone) == {f"chat@{GKE}": 0, f"chat@{EKS}": 100}
    assert _placements(project, moto) == {
        f"chat@{GKE}": {"role": "cold", "serving": False, "address": ADDRESSES[GKE]["ip"]},
        f"chat@{EKS}": {"role": "active", "serving": True, "address": ADDRESSES[EKS]["hostname"]},
    }
    again = gpuplat("plan", "dev", "--stage", "serving", env=env, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
