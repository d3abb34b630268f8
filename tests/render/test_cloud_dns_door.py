"""A front door on Cloud DNS: a root of its own per environment and workload.

The failover-gke-aks example with ``dns: cloud_dns`` and every state local is rendered; the
serving roots' states are written by real terraform (a root holding only their ``placements``
output, as the serving root leaves it after an apply), and the door root is initialised,
planned and applied by real terraform on the schema-serving stand-in in record mode. It shows
that the weights follow the serving states, not the spec: a role edited in the spec moves no
weight until the serving root that carries it out is applied. What no stand-in shows: Google's
probers reaching the load balancers, and Cloud DNS answering.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from gpuplat.app.render import render_project
from gpuplat.conformance.run import check_conformance
from tests.support.realparts import REPO
from tests.support.standin import build_stand_ins, record_env, recorded_applies, run

EXAMPLE = REPO / "src" / "gpuplat" / "examples" / "failover-gke-aks"
DOOR = """\
    front_door:
      dns: cloud_dns
      name: chat.example.com
      cloud_dns: {project: acme-dns, managed_zone: example-com}
"""


def cloud_dns_project(tmp_path: Path) -> Path:
    """The example with a Cloud DNS door, every state local (no backend of its own)."""
    root = tmp_path / "project"
    shutil.copytree(EXAMPLE, root)
    spec = (root / "gpuplat.yaml").read_text()
    start = spec.index("    front_door:")
    end = spec.index("\nenvironments:")
    spec = spec[:start] + DOOR + spec[end:]
    lines = spec.splitlines(keepends=True)
    kept: list[str] = []
    skipping = False
    for line in lines:
        if line.startswith("    backend:"):
            skipping = True
            continue
        if skipping and line.startswith("      "):
            continue
        skipping = False
        kept.append(line)
    (root / "gpuplat.yaml").write_text("".join(kept))
    (root / "envs" / "prod.yaml").unlink()
    (root / "gpuplat.yaml").write_text(
        (root / "gpuplat.yaml").read_text().replace("  - name: prod\n", "")
    )
    render_project(root, ["dev"])
    return root


def serving_state(root: Path, cluster: str, serving: bool, address: str | None) -> None:
    """The serving root's ``placements`` output, applied by real terraform to its local state."""
    folder = root / "states" / cluster
    folder.mkdir(parents=True, exist_ok=True)
    state = root / ".gpuplat" / "state" / "dev" / cluster / "serving.tfstate"
    placed: dict[str, object] = {"role": "active" if serving else "cold", "serving": serving}
    if address is not None:
        placed["address"] = address
    (folder / "main.tf").write_text(
        f'terraform {{\n  backend "local" {{\n    path = "{state}"\n  }}\n}}\n\n'
        f'output "placements" {{\n  value = {{ "chat@{cluster}" = {json.dumps(placed)} }}\n}}\n'
    )
    cli_config = build_stand_ins()
    assert run(cli_config, folder, "init", "-input=false").returncode == 0
    done = run(cli_config, folder, "apply", "-auto-approve", "-input=false")
    assert done.returncode == 0, done.stdout + done.stderr


def _records(log: Path) -> list[dict[str, object]]:
    return [a for a in recorded_applies(log) if a["type"] == "google_dns_record_set"]


def _weights(record: dict[str, object]) -> dict[str, float]:
    state = record["state"]
    assert isinstance(state, dict)
    items = state["routing_policy"][0]["wrr"]
    return {i["health_checked_targets"][0]["external_endpoints"][0]: i["weight"] for i in items}


def test_the_door_root_holds_every_placement_and_no_serving_root_holds_it(tmp_path: Path) -> None:
    root = cloud_dns_project(tmp_path)
    door = root / "envs" / "dev" / "door-chat"
    main = (door / "main.tf").read_text()
    assert 'source = "../../../modules/cloud-dns-weighted-record/1.2.0"' in main
    for cluster in ("inference-us", "inference-eus"):
        assert f'data "terraform_remote_state" "serving_{cluster}"' in main
        assert "front_door" not in (root / "envs/dev" / cluster / "serving/main.tf").read_text()
    # A scale-to-zero placement is probed over TCP on the interceptor's port, from 3 regions.
    assert 'type              = "TCP"' in main
    assert 'regions           = ["us-east4", "europe-west1", "asia-southeast1"]' in main
    assert (
        'path = "../../../.gpuplat/state/dev/door-chat/door.tfstate"'
        in (door / "backend.tf").read_text()
    )


def test_weights_follow_the_applied_serving_states_not_the_spec(tmp_path: Path) -> None:
    root = cloud_dns_project(tmp_path)
    door = root / "envs" / "dev" / "door-chat"
    cli_config = build_stand_ins()
    log = tmp_path / "applies.jsonl"
    env = record_env(log)
    # GKE serves, the AKS standby has its load balancer; nothing applied on AKS has an address
    # yet in the first step, so it is left out of the record set.
    serving_state(root, "inference-us", True, "203.0.113.10")
    serving_state(root, "inference-eus", False, None)
    assert run(cli_config, door, "init", "-input=false").returncode == 0
    first = run(cli_config, door, "apply", "-auto-approve", "-input=false", env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    checks = [a for a in recorded_applies(log) if a["type"] == "google_compute_health_check"]
    assert len(checks) == 1
    check = checks[0]["state"]
    assert isinstance(check, dict)
    assert check["source_regions"] == ["us-east4", "europe-west1", "asia-southeast1"]
    assert check["tcp_health_check"][0]["port"] == 8080 and check["http_health_check"] == []
    assert [_weights(r) for r in _records(log)] == [{"203.0.113.10": 100}]

    # The target's serving root applied (its rollout waited for): it joins at its weight.
    serving_state(root, "inference-eus", True, "198.51.100.7")
    run(cli_config, door, "apply", "-auto-approve", "-input=false", env=env)
    # The source's serving root applied without its replacement: its weight falls to 0
    # while its replicas still serve the clients that hold the old answer.
    serving_state(root, "inference-us", False, "203.0.113.10")
    run(cli_config, door, "apply", "-auto-approve", "-input=false", env=env)
    assert [_weights(r) for r in _records(log)] == [
        {"203.0.113.10": 100},
        {"203.0.113.10": 100, "198.51.100.7": 100},
        {"203.0.113.10": 0, "198.51.100.7": 100},
    ]
    # A second apply changes nothing.
    again = run(cli_config, door, "plan", "-detailed-exitcode", "-input=false", env=env)
    assert again.returncode == 0, again.stdout + again.stderr


def test_the_door_root_and_its_module_conform_to_the_google_provider(tmp_path: Path) -> None:
    """The schemas and the rules the google provider's source enforces (one kind of health
    check, rrdatas or routing_policy, wrr without geo fencing), offline."""
    root = cloud_dns_project(tmp_path)
    door = [root / "envs" / "dev" / "door-chat", root / "modules" / "cloud-dns-weighted-record"]
    result = check_conformance(root, door)
    assert result.exit_code == 0, result.summary()
    assert "0 violations" in result.summary()


def test_a_door_with_no_address_yet_plans_without_a_record_set(tmp_path: Path) -> None:
    # The first door apply before any serving root has a load balancer address: the provider
    # refuses a routing policy with none of wrr, geo, primary_backup (ExactlyOneOf, read from
    # resource_dns_record_set.go at v6.50.0; the stand-in enforces the extracted rule), so the
    # record set waits for the first address while the health check is created.
    root = cloud_dns_project(tmp_path)
    door = root / "envs" / "dev" / "door-chat"
    cli_config = build_stand_ins()
    log = tmp_path / "applies.jsonl"
    env = record_env(log)
    serving_state(root, "inference-us", True, None)
    serving_state(root, "inference-eus", False, None)
    assert run(cli_config, door, "init", "-input=false").returncode == 0
    first = run(cli_config, door, "apply", "-auto-approve", "-input=false", env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert [a["type"] for a in recorded_applies(log)] == ["google_compute_health_check"]
    # The first address arrives: the record set is created with it, the health check stays.
    serving_state(root, "inference-us", True, "203.0.113.10")
    second = run(cli_config, door, "apply", "-auto-approve", "-input=false", env=env)
    assert second.returncode == 0, second.stdout + second.stderr
    assert [_weights(r) for r in _records(log)] == [{"203.0.113.10": 100}]
    assert len(recorded_applies(log)) == 2


def test_a_cluster_never_applied_is_named_unread_and_left_out(tmp_path: Path) -> None:
    # Terraform refuses to read a state that does not exist ("Unable to find remote state"),
    # whatever the data source's defaults: the door root then cannot be planned at all, so a
    # cluster whose serving root was never applied (or whose cloud is down) is named in
    # var.unread, and its placement is left out while the others' items are applied.
    root = cloud_dns_project(tmp_path)
    door = root / "envs" / "dev" / "door-chat"
    cli_config = build_stand_ins()
    log = tmp_path / "applies.jsonl"
    env = record_env(log)
    serving_state(root, "inference-us", True, "203.0.113.10")
    assert run(cli_config, door, "init", "-input=false").returncode == 0
    refused = run(cli_config, door, "plan", "-input=false", env=env)
    assert refused.returncode == 1
    assert "No stored state was found" in refused.stderr.replace("\n", " ")
    unread = '-var=unread=["inference-eus"]'
    done = run(cli_config, door, "apply", "-auto-approve", "-input=false", unread, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [_weights(r) for r in _records(log)] == [{"203.0.113.10": 100}]
