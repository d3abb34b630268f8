"""A failover carried out by hand, line by line as ``failover --dry-run`` prints it.

chat serves 1 replica on GKE (``inference-us``) with a cold standby on EKS (``inference-use1``),
behind a Route 53 front door (the session's applied snapshot of test_failover_front_door). The
test reads the dry run's lines and does what they say, in order: each ``spec: …role: R`` line is
an edit of the spec, each ``gpuplat …`` line a command. Phase 1 brings EKS up with converge (its
Deployment is replaced at 1, and only then its record rises to 100); phase 2 takes GKE out of the
door with a plain plan and apply (its Deployment keeps serving), then converge replaces it at 0.

What an emulator cannot show: as in test_failover_front_door (the stand-in in record mode, no
pod runs, moto never probes). The TTL the dry run says to wait between the two steps of phase 2
is not waited for: nothing here holds an old answer. converge asks a person to type "yes"; the
test passes ``--yes`` in its place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.app.test_failover_front_door import behind_the_front_door, placements, weights
from tests.app.test_failover_run import EKS, GKE, gpuplat, moto, serving_states, stand_ins
from tests.support.moto import MotoServer
from tests.support.standin import recorded_applies

pytestmark = [pytest.mark.terraform, pytest.mark.integration]
__all__ = ["moto", "stand_ins"]

_ROLE = re.compile(r"^spec: workloads\[chat\]\.placements\.([a-z0-9-]+)\.role: ([a-z]+)$")


def by_hand(text: str) -> list[list[tuple[str, str]]]:
    """The dry run's phases, each as its steps in order: ("role", "cluster=role") or
    ("run", "gpuplat …"), read from the printed lines."""
    phases: list[list[tuple[str, str]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("phase "):
            phases.append([])
        elif (role := _ROLE.match(line)) is not None:
            phases[-1].append(("role", f"{role.group(1)}={role.group(2)}"))
        elif "gpuplat " in line and not line.startswith("failover "):
            phases[-1].append(("run", line[line.index("gpuplat ") :]))
    return phases


def set_role(project: Path, cluster: str, role: str) -> None:
    spec_file = project / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    spec["workloads"][0].setdefault("placements", {})[cluster] = {"role": role}
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")


def steps(log: Path, project: Path) -> list[tuple[str, str, int]]:
    """The Deployments and weighted records applied, in order, as (what, action, count)."""
    eks_root = str(project / "envs" / "dev" / EKS / "serving")
    out = []
    for a in recorded_applies(log):
        if a["type"] == "kubernetes_deployment_v1":
            side = EKS if a["cwd"] == eks_root else GKE
            replicas = int(a["state"]["spec"][0]["replicas"])  # type: ignore[index]
            out.append((f"deployment@{side}", str(a["action"]), replicas))
        elif a["type"] == "aws_route53_record" and a.get("set_identifier"):
            out.append((f"weight@{a['set_identifier']}", str(a["action"]), int(a["weight"])))  # type: ignore[call-overload]
    return out


def gke_deployment(project: Path) -> dict[str, object]:
    """The spec of GKE's model server Deployment, as its serving state holds it."""
    local = project / ".gpuplat" / "state" / "dev" / GKE / "serving.tfstate"
    state = json.loads(local.read_text(encoding="utf-8"))
    (found,) = [
        r["instances"][0]["attributes"]["spec"][0]
        for r in state["resources"]
        if r["type"] == "kubernetes_deployment_v1"
    ]
    return found  # type: ignore[no-any-return]


@pytest.fixture
def door(
    moto: MotoServer, stand_ins: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, dict[str, str], str, Path]]:
    with behind_the_front_door(moto, stand_ins, tmp_path_factory, tmp_path) as built:
        yield built


def run_step(step: tuple[str, str], project: Path, env: dict[str, str]) -> int:
    kind, what = step
    if kind == "role":
        cluster, role = what.split("=")
        set_role(project, cluster, role)
        return 0
    argv = what.split()[1:]
    if argv[0] == "converge":
        argv.append("--yes")  # what a person types at converge's question
    done = gpuplat(*argv, env=env, cwd=project)
    assert done.returncode in (0, 10), f"{what}\n{done.stdout}{done.stderr}"
    return done.returncode


def test_the_printed_by_hand_steps_move_chat_in_the_order_the_docs_claim(
    door: tuple[Path, dict[str, str], str, Path], moto: MotoServer
) -> None:
    project, env, zone, log = door
    dry = gpuplat("failover", "chat", "--to", EKS, "-e", "dev", "--dry-run", env=env, cwd=project)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    up, down = by_hand(dry.stdout)
    assert up == [("role", f"{EKS}=active"), ("run", "gpuplat converge chat -e dev")], dry.stdout
    assert down == [
        ("role", f"{GKE}=cold"),
        ("run", f"gpuplat plan dev --cluster {GKE} --stage serving"),
        ("run", f"gpuplat apply dev --cluster {GKE}"),
        ("run", "gpuplat converge chat -e dev"),
    ], dry.stdout

    # Phase 1: EKS's Deployment is replaced at 1 and its record rises only after it.
    log.unlink()
    for step in up:
        run_step(step, project, env)
    assert steps(log, project) == [
        (f"deployment@{EKS}", "delete", 0),
        (f"deployment@{EKS}", "create", 1),
        (f"weight@chat@{EKS}", "upsert", 100),
    ]
    assert weights(moto, zone) == {f"chat@{GKE}": 100, f"chat@{EKS}": 100}
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 1}}
    assert placements(project, moto)[f"chat@{EKS}"] == {
        "role": "active",
        "serving": True,
        "address": "chat-1a2b.elb.us-east-1.amazonaws.com",
    }

    # Phase 2, first apply: GKE leaves the door. Its Deployment is not replaced: it keeps its
    # replica and its pods (the pod template is the same); only its progress deadline, sized
    # from the replicas a node starts at once, changes in place.
    log.unlink()
    role, plan, apply, converge = down
    before = gke_deployment(project)
    run_step(role, project, env)
    assert run_step(plan, project, env) == 10
    run_step(apply, project, env)
    assert sorted(steps(log, project)) == [
        (f"deployment@{GKE}", "update", 1),
        (f"weight@chat@{GKE}", "upsert", 0),
    ]
    after = gke_deployment(project)
    changed = sorted(k for k in after if after[k] != before[k])
    assert changed == ["progress_deadline_seconds"], changed
    assert weights(moto, zone) == {f"chat@{GKE}": 0, f"chat@{EKS}": 100}
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 1}}

    # After the TTL: converge replaces GKE's Deployment at 0; no weight moves any more.
    log.unlink()
    run_step(converge, project, env)
    assert steps(log, project) == [
        (f"deployment@{GKE}", "delete", 1),
        (f"deployment@{GKE}", "create", 0),
    ]
    assert weights(moto, zone) == {f"chat@{GKE}": 0, f"chat@{EKS}": 100}
    assert serving_states(project, moto) == {EKS: {"chat": 1}, GKE: {"chat": 0}}
    assert placements(project, moto) == {
        f"chat@{GKE}": {"role": "cold", "serving": False, "address": "34.118.0.10"},
        f"chat@{EKS}": {
            "role": "active",
            "serving": True,
            "address": "chat-1a2b.elb.us-east-1.amazonaws.com",
        },
    }
    # A second converge changes nothing: test_converge_front_door shows it on this shape.
