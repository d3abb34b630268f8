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
