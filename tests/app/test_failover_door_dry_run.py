"""`failover --dry-run` with a front door: the record steps in the order the move takes them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.app.test_failover import failover_project
from tests.support.cli import run

DOOR = {"dns": "route53", "zone_id": "Z0123456789ABC", "name": "chat.example.com", "ttl": 30}


def test_the_dry_run_lists_the_front_door_steps_in_order(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "p", address={"scheme": "external"}, front_door=DOOR)
    args = ("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run")
    text = run(*args, cwd=folder).stdout
    rollout = text.index("the apply returns once the new pods are ready")
    up = text.index("front door chat.example.com: inference-us's record to weight 100")
    phase2 = text.index("phase 2: inference-use1")
    down = text.index(
        "front door chat.example.com: inference-use1's record to weight 0 in a first apply "
        "without the replacement, then the replacement in a second"
    )
    assert rollout < up < phase2 < down, text
    assert "up to the TTL (30 s)" in text
    data = json.loads(run(*args, "--json", cwd=folder).stdout)
    assert data["front_door"] == [
        {"phase": 1, "cluster": "inference-us", "weight": 100, "after": "rollout"},
        {
            "phase": 2,
            "cluster": "inference-use1",
            "weight": 0,
            "after": "target serving, before the replacement",
        },
    ]


def test_without_a_front_door_the_dry_run_names_none(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "p")
    args = ("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run")
    assert "front door" not in run(*args, cwd=folder).stdout
    assert json.loads(run(*args, "--json", cwd=folder).stdout)["front_door"] is None


def test_the_weight_zero_step_is_spelled_out_by_hand(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "p", address={"scheme": "external"}, front_door=DOOR)
    args = ("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run")
    text = run(*args, cwd=folder).stdout
    phase2 = text[text.index("phase 2: inference-use1") :]
    out = phase2.index("out of the front door first (the Deployment keeps serving")
    plan = phase2.index("      gpuplat plan dev --cluster inference-use1 --stage serving")
    apply = phase2.index("      gpuplat apply dev --cluster inference-use1")
    then = phase2.index("after the TTL (30 s), the replacement: gpuplat converge chat -e dev")
    assert out < plan < apply < then, phase2
    assert "converge replaces deployment/chat (namespace chat)" in phase2
    assert "the plan replaces" not in phase2


def test_the_replaced_target_is_brought_up_by_converge_not_a_plain_plan(tmp_path: Path) -> None:
    # A plain `gpuplat plan` leaves the cold target's Deployment at 0 (terraform ignores its
    # count); the by-hand line must name the command that replaces it.
    folder = failover_project(tmp_path / "p", address={"scheme": "external"}, front_door=DOOR)
    args = ("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run")
    text = run(*args, cwd=folder).stdout
    phase1 = text[text.index("phase 1: inference-us") : text.index("phase 2: inference-use1")]
    assert phase1.splitlines()[1:4] == [
        "    spec: workloads[chat].placements.inference-us.role: active",
        "    gpuplat converge chat -e dev",
        "    converge replaces deployment/chat (namespace chat): the new one starts at 1 replica",
    ], phase1
    assert "gpuplat plan" not in phase1
    assert "the plan replaces" not in text


def test_a_traffic_manager_door_enables_and_disables_endpoints(tmp_path: Path) -> None:
    door = {
        "dns": "traffic_manager",
        "name": "chat.example.com",
        "traffic_manager": {"subscription_id": "0000", "resource_group": "front"},
    }
    folder = failover_project(tmp_path / "p", address={"scheme": "external"}, front_door=door)
    args = ("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run")
    text = run(*args, cwd=folder).stdout
    up = text.index("front door chat.example.com: inference-us's endpoint enabled at weight 100")
    down = text.index("front door chat.example.com: inference-use1's endpoint disabled (weight 0)")
    assert up < down, text
    assert "record" not in text.replace("the record waits", ""), text
