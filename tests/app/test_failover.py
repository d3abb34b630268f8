"""`gpuplat failover`: the target is checked, then the move is given in the safe order.

These use --dry-run (check and print, change nothing); tests/app/test_failover_run.py carries
a failover out with real terraform.
"""

from __future__ import annotations

import json
from pathlib import Path

import hcl2
import yaml

from tests.app.test_place import two_clouds
from tests.support.cli import run
from tests.support.hclread import plain


def failover_project(folder: Path, **workload: object) -> Path:
    """The two-cloud spec with the workload active on EKS and a cold standby on GKE."""
    two_clouds(folder, "hf://meta-llama/Llama-3.2-3B-Instruct")
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    chat = spec["workloads"][0]
    chat.update({"clusters": ["inference-use1", "inference-us"], "accelerator": "L4", "gpus": 1})
    chat.pop("pool")
    # No HPA metric: GKE refuses one until gpuplat renders a custom-metrics adapter there.
    chat.pop("autoscaling", None)
    chat.update(workload)
    (folder / "gpuplat.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert run("validate", cwd=folder).exit_code == 0
    return folder


def test_failover_brings_the_target_up_before_the_source_goes_down(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "ok")
    result = run(
        "failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", "--json", cwd=folder
    )
    assert result.exit_code == 0, result.stderr
    plan = json.loads(result.stdout)
    assert plan["refused"] is False
    up, down = plan["phases"]
    assert (up["cluster"], up["from"], up["to"]) == ("inference-us", "cold", "active")
    assert (down["cluster"], down["from"], down["to"]) == ("inference-use1", "active", "cold")
    # dev: replicas 1..4 (the overlay lowers max); the GPUs that always run move from one
    # cluster to the other, never to zero on both.
    assert (up["replicas"], up["gpus_before"], up["gpus_after"]) == ([1, 4], 0, 1)
    assert (down["replicas"], down["gpus_before"], down["gpus_after"]) == ([0, 0], 1, 0)
    assert plan["scale_by_hand"] is True
    # Nothing scales either Deployment (no HPA, no KEDA): both are replaced to change count.
    assert (up["replace"], down["replace"]) == (True, True)
    text = run(
        "failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", cwd=folder
    ).stdout
    order = [line.split()[0] for line in text.splitlines()[1:]]
    ready = "the apply returns once the new pods are ready (terraform waits for the rollout)"
    assert text.index("phase 1: inference-us") < text.index(ready)
    assert text.index(ready) < text.index("phase 2: inference-use1")
    # What gpuplat does, not kubectl commands it does not run: by hand, converge replaces a
    # Deployment whose count no autoscaler changes (a plain plan leaves its count alone).
    assert "kubectl" not in text
    assert "converge replaces deployment/chat (namespace " in text
    assert "the plan replaces" not in text
    assert order.count("phase") == 2


def test_failover_to_a_warm_standby_keeps_the_source_warm_on_request(tmp_path: Path) -> None:
    folder = failover_project(
        tmp_path / "warm", placements={"inference-us": {"role": "warm", "warm_replicas": 1}}
    )
    result = run(
        "failover",
        "chat",
        "--to",
        "inference-us",
        "-e",
        "dev",
        "--source",
        "warm",
        "--dry-run",
        "--json",
        cwd=folder,
    )
    plan = json.loads(result.stdout)
    up, down = plan["phases"]
    assert (up["from"], up["gpus_before"], plan["scale_by_hand"]) == ("warm", 1, False)
    # Without an HPA a warm standby holds its replicas fixed.
    assert (down["to"], down["replicas"]) == ("warm", [1, 1])
    # 1 replica before and after on both sides: no Deployment is replaced.
    assert (up["replace"], down["replace"]) == (False, False)


def test_keda_moves_the_counts_of_a_scale_to_zero_workload_itself(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "keda", scale_to_zero=True, replicas={"min": 0, "max": 4})
    result = run(
        "failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", "--json", cwd=folder
    )
    assert result.exit_code == 0, result.stderr
    plan = json.loads(result.stdout)
    up, down = plan["phases"]
    # KEDA scales from and to 0 on traffic: the failover replaces neither Deployment.
    assert (up["replicas"], down["replicas"]) == ([0, 4], [0, 4])
    assert (up["replace"], down["replace"], plan["scale_by_hand"]) == (False, False, False)


def test_failover_refuses_a_target_that_cannot_hold_the_workload(tmp_path: Path) -> None:
    # On GKE 5 replicas would always run: its pool holds 4 (2 nodes in dev, each L4 shared
    # by 2). A cold standby runs none, so the spec is valid until the failover asks for 5.
    folder = failover_project(
        tmp_path / "full", placements={"inference-us": {"replicas": {"min": 5, "max": 5}}}
    )
    result = run("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", cwd=folder)
    assert result.exit_code == 7  # refused, as the README's exit-code table says
    assert "refused, the target cannot hold it" in result.stdout
    assert "5 replicas can never be ready" in result.stdout


def test_failover_to_a_cluster_the_workload_does_not_list(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "unlisted", clusters=["inference-use1"])
    result = run("failover", "chat", "--to", "inference-us", "-e", "dev", "--dry-run", cwd=folder)
    assert result.exit_code == 1
    assert 'cluster "inference-us" is not one of the clusters of workload "chat"' in result.stderr


def test_each_placement_exports_its_role_and_endpoint(tmp_path: Path) -> None:
    folder = failover_project(tmp_path / "outputs")
    assert run("render", cwd=folder).exit_code == 0
    found = {}
    for cluster in ("inference-use1", "inference-us"):
        root = folder / "envs" / "dev" / cluster / "serving" / "outputs.tf"
        outputs = {
            k: v
            for block in plain(hcl2.loads(root.read_text()))["output"]
            for k, v in block.items()
        }  # type: ignore[union-attr, index]
        found.update(outputs["placements"]["value"])  # type: ignore[index]
    assert found == {
        "chat@inference-use1": {
            "endpoint": "${module.serve_chat_inference-use1.service}",
            "role": "active",
            "serving": True,
        },
        "chat@inference-us": {
            "endpoint": "${module.serve_chat_inference-us.service}",
            "role": "cold",
            "serving": False,
        },
    }
