"""Moving a multi-host workload between clusters.

``failover --dry-run`` plans a group's move: whole groups (GPUs always running = groups x nodes
x GPUs), the LeaderWorkerSet's count changed in place (no replacement), the target's own GPU
fabric required on the group's pool, and the wait for every group before the source goes: the
set's apply waits for them (model-server 3.4.0, tests/multihost/test_group_wait.py). Carrying a
move out (``failover`` without --dry-run, ``converge``) goes ahead, an autoscaled group's too
(held at the sources' groups, tests/multihost/test_group_failover.py), except where nothing can
wait for the groups: an autoscaled group moved to a warm standby (its ScaledObject already owns
the count), or converge running groups on a cluster without a fabric; those are refused,
located, with exit 7. Nothing runs terraform.

The project is the 405B example with a second EKS cluster (us-west-2) as a cold standby.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from gpuplat.errors import ExitCode
from tests.multihost.test_group import DATA
from tests.support.cli import run

WEST = """  - name: frontier-usw2
    cloud: eks
    region: us-west-2
    zones: [us-west-2a, us-west-2b]
    kubernetes:
      version: "1.35"
    network:
      vpc_cidr: 10.61.0.0/16
      private_nodes: true
    node_pools:
      - name: p5
        machine_type: p5.48xlarge
        zones: [us-west-2a]
        efa: true
        placement:
          compact: true
        autoscaling:
          min_nodes: 0
          max_nodes: 4
        disk:
          size_gb: 1200
          type: gp3

addons:
"""


AUTOSCALED = (
    "    replicas:\n      min: 1\n      max: 1\n",
    "    replicas:\n      min: 1\n      max: 2\n"
    "    autoscaling:\n      metric: vllm:num_requests_waiting\n      target: 8\n",
)


def two_clusters(tmp_path: Path, *patches: tuple[str, str]) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(DATA / "eks-p5-llama405b", folder)
    spec = folder / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in (
        ("\naddons:\n", "\n" + WEST),
        ("    clusters: [frontier-use1]\n", "    clusters: [frontier-use1, frontier-usw2]\n"),
        *patches,
    ):
        assert old in text, old
        text = text.replace(old, new, 1)
    spec.write_text(text, encoding="utf-8")
    return folder


def test_a_group_fails_over_by_whole_groups_and_waits_for_them(tmp_path: Path) -> None:
    folder = two_clusters(tmp_path)
    args = ("failover", "llama-405b", "--to", "frontier-usw2", "-e", "dev", "--dry-run")
    done = run(*args, "--json", cwd=folder)
    assert done.exit_code == 0, done.stdout + done.stderr
    plan = json.loads(done.stdout)
    assert plan["refused"] is False
    up, down = plan["phases"]
    # One group of 2 nodes x 8 GPUs always running moves from east to west.
    assert (up["cluster"], up["from"], up["to"]) == ("frontier-usw2", "cold", "active")
    assert (up["gpus_before"], up["gpus_after"], up["group_nodes"]) == (0, 16, 2)
    assert (down["cluster"], down["gpus_before"], down["gpus_after"]) == ("frontier-use1", 16, 0)
    # The set's count changes in place: nothing is replaced, nothing to scale by hand.
    assert up["replace"] is down["replace"] is False and plan["scale_by_hand"] is False
    text = run(*args, cwd=folder)
    assert text.exit_code == 0, text.stderr
    assert (
        "    the apply returns once every group of 2 nodes is ready (terraform waits until the "
        "set reports 1 groups ready and updated): only then phase 2\n"
    ) in text.stdout
    assert "kubectl" not in text.stdout
    assert not (folder / "envs").exists()


def test_an_autoscaled_group_s_dry_run_shows_the_held_groups_and_their_gpus(
    tmp_path: Path,
) -> None:
    folder = two_clusters(tmp_path, AUTOSCALED)
    args = ("failover", "llama-405b", "--to", "frontier-usw2", "-e", "dev", "--dry-run")
    text = run(*args, cwd=folder)
    assert text.exit_code == 0, text.stdout + text.stderr
    # The failover holds the set at the sources' groups: 1..2 groups x 2 nodes x 8 GPUs.
    assert (
        "    KEDA owns the count: gpuplat failover holds the set at the groups the sources serve "
        "(1..2 groups x 2 nodes x 8 GPUs: 16..32 GPUs), its apply waits for every held group "
        "before phase 2, and the count goes back to KEDA once the sources are down\n"
    ) in text.stdout
    # By hand a plain apply names no count: the wait stays the reader's.
    assert (
        "wait leaderworkerset/llama-405b --for=jsonpath='{.status.readyReplicas}'=1" in text.stdout
    )


def test_a_target_without_a_fabric_is_refused(tmp_path: Path) -> None:
    folder = two_clusters(
        tmp_path,
        ("        zones: [us-west-2a]\n        efa: true\n", "        zones: [us-west-2a]\n"),
    )
    done = run(
        "failover", "llama-405b", "--to", "frontier-usw2", "-e", "dev", "--dry-run", cwd=folder
    )
    assert done.exit_code == ExitCode.REFUSED == 7, done.stdout + done.stderr
    assert "refused, the target cannot hold it" in done.stdout
    assert '"frontier-usw2" has no GPU fabric for the group on pool "p5"' in done.stdout


def test_an_autoscaled_group_s_move_to_a_warm_standby_is_refused_where_its_role_is(
    tmp_path: Path,
) -> None:
    # A warm standby already has its ScaledObject, whose autoscaler would take the held groups
    # back to its minimum while the apply waits for them.
    warm = (
        "    pool: p5\n",
        "    pool: p5\n    placements:\n      frontier-usw2:\n        role: warm\n"
        "        warm_replicas: 1\n",
    )
    folder = two_clusters(tmp_path, AUTOSCALED, warm)
    args = ("failover", "llama-405b", "--to", "frontier-usw2", "-e", "dev", "--yes")
    done = run(*args, cwd=folder)
    assert done.exit_code == ExitCode.REFUSED == 7, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "failover does not carry out the move of an autoscaled multi-host workload to a " in (
        said
    )
    assert "gpuplat.yaml:76:9  workloads[0].placements.frontier-usw2.role" in said
    assert "make frontier-usw2 a cold standby" in said
    assert not (folder / "envs").exists()  # nothing rendered, planned or written


def test_converge_refuses_groups_on_a_cluster_without_a_fabric(tmp_path: Path) -> None:
    folder = two_clusters(
        tmp_path,
        ("        zones: [us-west-2a]\n        efa: true\n", "        zones: [us-west-2a]\n"),
        (
            "    pool: p5\n",
            "    pool: p5\n    placements:\n      frontier-usw2:\n        role: active\n",
        ),
    )
    done = run("converge", "llama-405b", "-e", "dev", "--yes", cwd=folder)
    assert done.exit_code == ExitCode.REFUSED == 7, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert 'converge would run groups of "llama-405b" on frontier-usw2' in said
    assert '"frontier-usw2" has no GPU fabric for the group on pool "p5"' in said
    assert "gpuplat.yaml:70:5  workloads[0].multi_host" in said  # one line less: no efa
    assert not (folder / "envs").exists()
