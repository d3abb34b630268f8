"""A failover's and converge's front-door step on Cloud DNS: the door root applied after a serving
apply, and the by-hand order `failover --dry-run` prints.

Real terraform applies the door root on the schema-serving stand-in in record mode, with the
serving states written by real terraform (tests/render/test_cloud_dns_door.py says how); the
move's own serving applies are the ones the Route 53 and Traffic Manager failover tests run.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gpuplat.app.door import follow
from gpuplat.app.failover import failover, report_lines
from gpuplat.console import Console
from gpuplat.progress import Progress
from gpuplat.spec.load import EnvSpec, load_project
from gpuplat.terraform import TerraformBinary, TerraformError, find_binary
from tests.render.test_cloud_dns_door import cloud_dns_project, serving_state
from tests.support.realparts import terraform_bin
from tests.support.standin import build_stand_ins, record_env, recorded_applies


def _door_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, EnvSpec, TerraformBinary, Path]:
    """The Cloud DNS project, its dev environment, terraform, and the stand-in's apply log."""
    root = cloud_dns_project(tmp_path)
    cli_config = build_stand_ins()
    log = tmp_path / "applies.jsonl"
    for name, value in {**record_env(log), "TF_CLI_CONFIG_FILE": str(cli_config)}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("TF_PLUGIN_CACHE_DIR", raising=False)
    env = load_project(root, ["dev"]).envs["dev"]
    return root, env, find_binary(terraform_bin()), log


def _weights(log: Path) -> list[dict[object, object]]:
    """Each applied record set's items, address -> weight."""
    return [
        {
            i["health_checked_targets"][0]["external_endpoints"][0]: i["weight"]
            for i in a["state"]["routing_policy"][0]["wrr"]  # type: ignore[index]
        }
        for a in recorded_applies(log)
        if a["type"] == "google_dns_record_set"
    ]


def test_follow_applies_the_door_after_a_serving_apply_and_then_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env, binary, log = _door_project(tmp_path, monkeypatch)
    progress = Progress(Console(out=io.StringIO(), err=io.StringIO(), color=False), live=False)
    serving_state(root, "inference-us", True, "203.0.113.10")
    serving_state(root, "inference-eus", False, "198.51.100.7")
    # The door of a workload not on the cluster is not touched; one on it is created.
    assert follow(root, env, ["elsewhere"], binary=binary, progress=progress) == []
    assert follow(root, env, ["inference-us"], binary=binary, progress=progress) == [
        "dev/door-chat"
    ]
    # Nothing changed in the serving states: the door plans no changes and applies nothing.
    assert follow(root, env, ["inference-us"], binary=binary, progress=progress) == []
    serving_state(root, "inference-eus", True, "198.51.100.7")
    assert follow(root, env, ["inference-eus"], binary=binary, progress=progress) == [
        "dev/door-chat"
    ]
    weights = _weights(log)
    assert weights == [
        {"203.0.113.10": 100, "198.51.100.7": 0},
        {"203.0.113.10": 100, "198.51.100.7": 100},
    ]


def test_dry_run_prints_the_door_root_after_each_serving_apply(tmp_path: Path) -> None:
    root = cloud_dns_project(tmp_path)
    lines = report_lines("dev", failover(root, "dev", "chat", "inference-eus", "cold"))
    text = "\n".join(lines)
    apply = "terraform -chdir=envs/dev/door-chat init && terraform -chdir=envs/dev/door-chat apply"
    assert text.count(apply) == 2
    up = text.index("inference-eus's item to weight 100")
    down = text.index("inference-us's item to weight 0")
    # The target's weight rises after its serving apply (its rollout waited for), before
    # phase 2; the source's falls after the serving apply that makes it cold.
    assert text.index("gpuplat apply dev --cluster inference-eus") < up < text.index("  phase 2:")
    assert text.index("gpuplat apply dev --cluster inference-us\n") < down


def test_a_cluster_never_applied_is_left_out_and_an_unreadable_state_still_stops_the_door(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Terraform refuses a remote state that does not exist, defaults or not: on main the door
    # root could not be planned until every cluster of the workload had been applied once.
    root, env, binary, log = _door_project(tmp_path, monkeypatch)
    said = io.StringIO()
    progress = Progress(Console(out=said, err=said, color=False), live=False)
    serving_state(root, "inference-us", True, "203.0.113.10")
    assert follow(root, env, ["inference-us"], binary=binary, progress=progress) == [
        "dev/door-chat"
    ]
    assert "inference-eus's serving root was never applied" in said.getvalue()
    # Once it is applied, its item joins the record set.
    serving_state(root, "inference-eus", False, "198.51.100.7")
    assert follow(root, env, ["inference-eus"], binary=binary, progress=progress) == [
        "dev/door-chat"
    ]
    weights = _weights(log)
    assert weights == [{"203.0.113.10": 100}, {"203.0.113.10": 100, "198.51.100.7": 0}]
    # A state that exists but cannot be read is not guessed away: the door stops, named.
    state = root / ".gpuplat" / "state" / "dev" / "inference-eus" / "serving.tfstate"
    state.write_text("not a state")
    with pytest.raises(TerraformError) as stopped:
        follow(root, env, ["inference-eus"], binary=binary, progress=progress)
    assert "dev/door-chat" in stopped.value.message
